import { readFileSync, statSync } from 'node:fs';
import type { AgentKind } from '../../core/agents.js';
import type { DiscoveryCache } from './cache.js';
import { isMissing, unlessMissing } from './missing.js';

/**
 * A side file modified this recently is read but not remembered: its mtime may not move on a
 * rewrite in the same clock tick (the kernel's file times are coarse), so size and mtime could
 * not tell the remembered text from the new one (git's "racily clean" entries, the same way).
 */
export const SIDE_TEXT_RACY_MS = 2_000;
/** Bigger side files (an index that grows with every session) are read each time, not kept in the cache. */
export const SIDE_TEXT_MAX_BYTES = 64 * 1024;

/** The text of a side file, or undefined when it is not there; other errors are thrown. */
export type SideTextReader = (file: string) => string | undefined;

/**
 * Reads side files (grok's `summary.json`, kimi's `state.json`: one per session, rewritten in
 * place) through the discovery cache: a file whose size and mtime are those it had when last read
 * is not read again, so a warm start of unchanged sessions stats them only.
 * Without a cache it reads every time.
 */
export const createSideTextReader = (agent: AgentKind, cache: DiscoveryCache | undefined, now: () => number = Date.now): SideTextReader => {
  if (cache === undefined) return (file) => unlessMissing(() => readFileSync(file, 'utf8'));
  return (file) => {
    const remembered = cache.sideText(file);
    let text: string;
    let info;
    try {
      info = statSync(file);
      // Unchanged: its row stays as it is (a warm start writes nothing).
      if (remembered !== undefined && remembered.size === info.size && remembered.mtimeMs === info.mtimeMs) return remembered.text;
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if (remembered !== undefined) cache.rememberSideText(file, agent, undefined);
      if (isMissing(error)) return undefined;
      throw error;
    }
    // Only what was read whole (no write between the stat and the read) and at rest for a while.
    const whole = Buffer.byteLength(text) === info.size;
    if (whole && info.size <= SIDE_TEXT_MAX_BYTES && now() - info.mtimeMs > SIDE_TEXT_RACY_MS) cache.rememberSideText(file, agent, { size: info.size, mtimeMs: info.mtimeMs, text });
    else if (remembered !== undefined) cache.rememberSideText(file, agent, undefined);
    return text;
  };
};
