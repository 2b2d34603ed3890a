import type { SessionMetaPatch } from '../../core/session.js';
import type { SideFileSpec } from './file-parser.js';

export interface SideFiles {
  /** The merged patch for a session from every side file read so far. */
  readonly metaFor: (sessionId: string) => SessionMetaPatch | undefined;
  /** Re-reads one side file; returns the sessions whose patch changed. */
  readonly refresh: (file: string) => Promise<ReadonlyMap<string, SessionMetaPatch>>;
}

const samePatch = (a: SessionMetaPatch | undefined, b: SessionMetaPatch): boolean => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** Remembers what each side file said, so only real changes reach the sessions. */
export const createSideFiles = (spec: SideFileSpec | undefined): SideFiles => {
  const byFile = new Map<string, ReadonlyMap<string, SessionMetaPatch>>();
  const merged = new Map<string, SessionMetaPatch>();

  const rebuild = (): void => {
    merged.clear();
    for (const patches of byFile.values()) {
      for (const [sessionId, patch] of patches) merged.set(sessionId, { ...merged.get(sessionId), ...patch });
    }
  };

  return {
    metaFor: (sessionId) => merged.get(sessionId),
    refresh: async (file) => {
      if (!spec) return new Map();
      const patches = await spec.read(file);
      const before = new Map(merged);
      byFile.set(file, patches);
      rebuild();
      const changed = new Map<string, SessionMetaPatch>();
      for (const [sessionId, patch] of merged) if (!samePatch(before.get(sessionId), patch)) changed.set(sessionId, patch);
      return changed;
    },
  };
};
