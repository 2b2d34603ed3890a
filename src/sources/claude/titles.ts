import type { SessionEvent, SessionState } from '../../core/session.js';
import { readEarlierLines } from './earlier-lines.js';
import type { ClaudeRecord } from './schema.js';

/** Message uuids remembered per file for summaries written after their leaf (newest kept). */
const SEEN_UUIDS_MAX = 4096;

/** FNV-1a, 32 bits: message uuids compared within one file, where a collision is negligible. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};

export interface Titles {
  /** Notes a message of this file; a summary that waited for it as its leaf names the session now. */
  readonly rememberUuid: (uuid: string | undefined) => SessionEvent[];
  /** True while a summary waits for its leaf (a message line's uuid is then worth finding). */
  readonly waiting: () => boolean;
  /** `custom-title`: the user's rename, which wins over every other title. */
  readonly customTitle: (record: ClaudeRecord) => SessionEvent[];
  /** `ai-title`: the generated title of 2.1.x. */
  readonly aiTitle: (record: ClaudeRecord) => SessionEvent[];
  /** `summary`: a title, when its leaf is a message of this file. */
  readonly summary: (record: ClaudeRecord) => SessionEvent[];
}

/** What names a session, among the records of one transcript. */
export const createTitles = (file: string, ref: { readonly agent: 'claude'; readonly sessionId: string }, resumed: boolean, restored: SessionState | undefined): Titles => {
  let sawCustomTitle = false;
  // A summary names this session only when its leafUuid is a message of this same file.
  const pendingSummaries = new Map<string, string>();
  // 32-bit hashes, not the strings: a few bytes per message of every watched transcript.
  const seenUuids = new Set<number>();
  const addHash = (hash: number): void => {
    seenUuids.add(hash);
    if (seenUuids.size > SEEN_UUIDS_MAX) for (const old of seenUuids) { seenUuids.delete(old); break; }
  };
  // Resumed past the file's start: its earlier lines are read once, when a title or summary first
  // needs them (earlier-lines.ts), as if this parser had read them itself.
  let earlierRead = !resumed;
  const readEarlier = (): void => {
    if (earlierRead) return;
    earlierRead = true;
    const earlier = readEarlierLines(file, restored?.checkpoint?.offset ?? 0);
    if (!earlier) return;
    if (earlier.renamed) sawCustomTitle = true;
    const since = [...seenUuids];
    seenUuids.clear();
    for (const uuid of earlier.uuids) addHash(fnv1a(uuid));
    for (const hash of since) addHash(hash);
  };
  return {
    rememberUuid: (uuid) => {
      if (!uuid) return [];
      addHash(fnv1a(uuid));
      const summary = pendingSummaries.get(uuid);
      if (summary === undefined) return [];
      pendingSummaries.delete(uuid);
      return sawCustomTitle ? [] : [{ type: 'meta', ...ref, patch: { agentName: summary } }];
    },
    waiting: () => pendingSummaries.size > 0,
    customTitle: (record) => {
      if (!record.customTitle) return [];
      sawCustomTitle = true;
      return [{ type: 'meta', ...ref, patch: { agentName: record.customTitle } }];
    },
    aiTitle: (record) => {
      // Rewritten as the session goes on (summaries are no longer written there). A user's rename wins.
      if (record.aiTitle) readEarlier();
      return record.aiTitle && !sawCustomTitle ? [{ type: 'meta', ...ref, patch: { agentName: record.aiTitle } }] : [];
    },
    summary: (record) => {
      // A title for /resume, but Claude Code also writes summaries of OTHER sessions into a file:
      // it names this one only when its leaf is a message of this file. A user's rename wins.
      if (!record.summary || !record.leafUuid) return [];
      readEarlier();
      if (sawCustomTitle) return [];
      if (seenUuids.has(fnv1a(record.leafUuid))) return [{ type: 'meta', ...ref, patch: { agentName: record.summary } }];
      pendingSummaries.set(record.leafUuid, record.summary);
      return [];
    },
  };
};
