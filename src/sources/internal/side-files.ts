import type { SessionMetaPatch } from '../../core/session.js';
import type { SideFileSpec } from './file-parser.js';

export interface SideFiles {
  /** The merged patch for a session from every side file read so far. */
  readonly metaFor: (sessionId: string) => SessionMetaPatch | undefined;
  /** Re-reads one side file; returns the sessions whose patch changed. */
  readonly refresh: (file: string) => Promise<ReadonlyMap<string, SessionMetaPatch>>;
}

const samePatch = (a: SessionMetaPatch | undefined, b: SessionMetaPatch | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));

/**
 * Remembers what each side file said, so only real changes reach the sessions. A session's patch
 * merges what every file says of it, later-read files winning; a refresh re-merges only the
 * sessions the file names (now or before): kimi keeps one side file per session, and re-merging
 * every session on every file was quadratic in a warm start.
 */
export const createSideFiles = (spec: SideFileSpec | undefined): SideFiles => {
  const byFile = new Map<string, ReadonlyMap<string, SessionMetaPatch>>();
  // File order (first read first) and, per session, the files that name it.
  const order = new Map<string, number>();
  const filesOf = new Map<string, Set<string>>();
  const merged = new Map<string, SessionMetaPatch>();

  const remerge = (sessionId: string): SessionMetaPatch | undefined => {
    const files = [...(filesOf.get(sessionId) ?? [])].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    let patch: SessionMetaPatch | undefined;
    for (const file of files) {
      const part = byFile.get(file)?.get(sessionId);
      if (part !== undefined) patch = { ...patch, ...part };
    }
    if (patch === undefined) merged.delete(sessionId);
    else merged.set(sessionId, patch);
    return patch;
  };

  return {
    metaFor: (sessionId) => merged.get(sessionId),
    refresh: async (file) => {
      if (!spec) return new Map();
      const patches = await spec.read(file);
      const previous = byFile.get(file);
      if (!order.has(file)) order.set(file, order.size);
      byFile.set(file, patches);
      const affected = new Set([...(previous?.keys() ?? []), ...patches.keys()]);
      for (const sessionId of patches.keys()) {
        let files = filesOf.get(sessionId);
        if (!files) filesOf.set(sessionId, (files = new Set()));
        files.add(file);
      }
      const changed = new Map<string, SessionMetaPatch>();
      for (const sessionId of affected) {
        if (!patches.has(sessionId)) filesOf.get(sessionId)?.delete(file);
        const before = merged.get(sessionId);
        const after = remerge(sessionId);
        if (after !== undefined && !samePatch(before, after)) changed.set(sessionId, after);
      }
      return changed;
    },
  };
};
