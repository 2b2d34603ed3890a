import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { changesNothing, sameTokens, type DiagnosticCounts, type SessionEvent, type SessionState } from '../../core/session.js';
import type { DiscoveryCache } from '../internal/cache.js';
import { diagnostic } from '../internal/file-parser.js';
import { addCounts, restoredDiagnostics, withDiagnosticsOf } from '../internal/kept-diagnostics.js';
import { createScratch, readLinesFrom, type ReadOptions } from '../internal/read-lines.js';
import { parseJson } from '../internal/skim.js';
import { unlessMissing } from '../internal/missing.js';
import { createSideTextReader } from '../internal/side-text.js';
import { createUnknownRecords, type UnknownRecords } from '../internal/unknown-records.js';
import { skimGrokLine } from './skim.js';
import { GROK_CHAT_FILE, GROK_SUMMARY_FILE, GROK_UPDATES_FILE } from './paths.js';
import { GROK_CHAT_FORMAT, grokFormatLabel, grokMeta, grokSessionId, grokSummaryTime, parseGrokLine, stampGrokBatch } from './parse.js';
import { grokSummarySchema, type GrokSummary } from './schema.js';
import { advanceLedger, EMPTY_LEDGER, ledgerFromText, ledgerIsCurrent, ledgerText, ledgerTotals, type GrokLedger } from './usage-ledger.js';

interface Tracked {
  readonly sessionId: string;
  summary: GrokSummary;
  summaryText: string;
  summaryTime: number;
  offset: number;
  ino: number;
  size: number;
  mtimeMs: number;
  formatReported: boolean;
  /** Unknown chat record types, counted once per session. */
  readonly unknown: UnknownRecords;
  /** Lines read so far when read from the start in this process (unknown after a warm start). */
  line?: number;
  /** The state the discovery cache restored (a summary that says nothing new is not sent again). */
  readonly restored: SessionState | undefined;
  /** Usage of the turns `updates.jsonl` recorded so far; undefined until first looked at. */
  ledger: GrokLedger | undefined;
  /**
   * Diagnostics of the transcript's records read so far (a replay from its first byte starts them
   * again), and of the session itself (its summary's chat format, its usage ledger): kept in the
   * checkpoint, so a warm start counts what a cold start counts (kept-diagnostics.ts).
   */
  recordDiagnostics: DiagnosticCounts | undefined;
  sessionDiagnostics: DiagnosticCounts | undefined;
}

export interface GrokReader {
  /** Brings one session directory up to date (first sight, summary change, appended lines, truncation, deletion). */
  readonly sync: (dir: string) => Promise<void>;
  readonly trackedDirs: () => string[];
  /** Gives back the read buffer a first pass grew (watching reads appends, a few KB at a time). */
  readonly trim: () => void;
}

// Synchronous (the summary's reader too): a thread pool round trip per read and stat made a warm
// start of many sessions (one after the other, through the dirty queue) markedly slower.
const statOptional = (file: string): Stats | undefined => unlessMissing(() => statSync(file));

/**
 * The stateful half of the grok source. A session is its directory: `summary.json` gives the
 * descriptive facts and the session's own last-active time, `chat_history.jsonl` the transcript,
 * read incrementally from a byte offset (it is appended to). The transcript carries no times, so
 * each batch of new lines is stamped with the later of the summary's time and the transcript's
 * mtime (both written by Grok), on its last turn and last tool record only.
 */
export const createGrokReader = (emit: (event: SessionEvent) => void, cache?: DiscoveryCache, read?: ReadOptions): GrokReader => {
  const tracked = new Map<string, Tracked>();
  // Per session directory, the last summary text that failed to parse, so it is reported once, not
  // on every event: also while the directory is no session yet (its transcript still grows).
  const badSummaries = new Map<string, string>();
  // Summaries through the cache: an unchanged one is stat'ed, not read, on a warm start.
  const readOptional = createSideTextReader('grok', cache);
  // One read buffer for every transcript (not one the size of each file).
  const scratch = read?.scratch ?? createScratch();
  const readOptions: ReadOptions = { ...read, scratch };
  const ref = (sessionId: string) => ({ agent: 'grok', sessionId }) as const;

  const forget = (dir: string): void => {
    const t = tracked.get(dir);
    if (!t) return;
    tracked.delete(dir);
    emit({ ...ref(t.sessionId), type: 'removed' });
  };

  const parseSummary = (dir: string, text: string): GrokSummary | undefined => {
    const parsed = grokSummarySchema.safeParse(parseJson(text));
    if (parsed.success) return parsed.data;
    if (badSummaries.get(dir) === text) return undefined;
    badSummaries.set(dir, text);
    const t = tracked.get(dir);
    emit(diagnostic('grok', 'E_SCHEMA', `${GROK_SUMMARY_FILE} is not a Grok session summary (kept the previous one)`, { path: path.join(dir, GROK_SUMMARY_FILE), ...(t ? { sessionId: t.sessionId } : {}) }));
    return undefined;
  };

  /** First sight of a directory: restore it from the discovery cache, or start it from byte 0. */
  const open = (dir: string, summary: GrokSummary, summaryText: string, chat: { size: number; mtimeMs: number } | undefined): Tracked => {
    const chatSize = chat?.size ?? 0;
    const sessionId = grokSessionId(summary, dir);
    const chatFile = path.join(dir, GROK_CHAT_FILE);
    const base = {
      sessionId,
      summary,
      summaryText,
      summaryTime: grokSummaryTime(summary),
      ino: 0,
      formatReported: false,
      unknown: createUnknownRecords('grok', 'Grok'),
      ledger: undefined,
      recordDiagnostics: undefined,
      sessionDiagnostics: undefined,
    };
    const cached = cache?.get(chatFile);
    // Same size but written since: the transcript only grows, so it was rewritten in place (e.g. restored).
    const rewritten = cached !== undefined && chat !== undefined && cached.size === chat.size && cached.mtimeMs !== chat.mtimeMs;
    if (cached && !rewritten && cached.agent === 'grok' && cached.sessionId === sessionId && cached.offset <= chatSize) {
      emit({ ...ref(sessionId), type: 'restore', state: cached.state });
      // What reading it found is counted again; a newer chat format was among it, when it applies.
      const counts = cached.state.checkpoint?.diagnostics;
      for (const event of restoredDiagnostics('grok', counts, { sessionId, path: chatFile })) emit(event);
      return { ...base, formatReported: true, recordDiagnostics: counts, offset: cached.offset, size: cached.size, mtimeMs: cached.mtimeMs, restored: cached.state };
    }
    return { ...base, offset: 0, size: 0, mtimeMs: 0, restored: undefined };
  };

  /** Reads the lines appended since `t.offset`; `size`/`mtimeMs`/`ino` are from the stat just before. */
  const readNewLines = async (dir: string, t: Tracked, info: { size: number; mtimeMs: number; ino: number }): Promise<SessionEvent[]> => {
    const chat = path.join(dir, GROK_CHAT_FILE);
    // The whole transcript read at once (first sight) happened by the summary's own last-active
    // time; the file's mtime then only says when it was copied or restored (a one-shot run would
    // otherwise call a session that answered a minute ago brand new). Appends seen later are
    // as recent as the write itself, which the summary may not have caught up with yet.
    const fromStart = t.offset === 0;
    const batch: SessionEvent[] = [];
    const problems: SessionEvent[] = [];
    if (fromStart) t.line = 0;
    const at = (): { line?: number } => (t.line !== undefined ? { line: t.line } : {});
    const outcome = await readLinesFrom(
      chat,
      t.offset,
      info.size,
      (items) => {
        for (const item of items) {
          if (t.line !== undefined) t.line += 1;
          if (item.kind === 'oversized') {
            problems.push({ ...diagnostic('grok', 'E_OVERSIZED_LINE', `line of ${item.length} bytes ending at byte ${item.end} is over the line size cap; skipped`, { sessionId: t.sessionId, path: chat }), ...at() });
            continue;
          }
          const skimmed = skimGrokLine(item.bytes, t.sessionId);
          if (skimmed !== undefined) {
            for (const event of skimmed) batch.push(event);
            continue;
          }
          const text = item.bytes.toString('utf8');
          if (!text.trim()) continue;
          const result = parseGrokLine(text, t.sessionId);
          if (result.ok && result.unknown) {
            const version = grokFormatLabel(t.summary);
            problems.push(...t.unknown.once(result.unknown.key, result.unknown.what, { sessionId: t.sessionId, path: chat, ...at(), ...(version ? { version } : {}) }));
          }
          if (result.ok) batch.push(...result.events);
          else problems.push({ ...diagnostic('grok', result.code, result.message, { sessionId: t.sessionId, path: chat }), ...at() });
        }
      },
      readOptions,
    );
    // NOTE: a write during the read leaves size/mtime behind the file: the next event reads the rest.
    t.offset = outcome.consumed;
    t.size = info.size;
    t.ino = info.ino;
    t.mtimeMs = info.mtimeMs;
    const stamp = fromStart && t.summaryTime > 0 ? t.summaryTime : Math.max(t.summaryTime, Math.floor(info.mtimeMs));
    return [...stampGrokBatch(batch, stamp), ...problems];
  };

  /**
   * Brings the session's usage up to date with `updates.jsonl` (usage-ledger.ts) and returns the
   * events that say so: the totals (`mode: 'total'`) when they differ from what the session holds
   * (`fresh`: its state was just reset, and holds none). The ledger is kept in the discovery cache
   * as a side text, so a warm start reads only what was appended since.
   */
  const syncUsage = async (dir: string, t: Tracked, fresh: boolean): Promise<SessionEvent[]> => {
    const file = path.join(dir, GROK_UPDATES_FILE);
    const info = statOptional(file);
    if (!info) return [];
    const before = t.ledger;
    let ledger = before ?? ledgerFromCache(file) ?? EMPTY_LEDGER;
    let skipped = 0;
    // A ledger the cache holds as the file is needs no read and no write (a warm start writes nothing).
    if (!ledgerIsCurrent(ledger, info)) {
      ({ ledger, skipped } = await advanceLedger(ledger, file, info, readOptions, t.summary.parent_session_id || undefined));
      cache?.rememberSideText(file, 'grok', { size: info.size, mtimeMs: info.mtimeMs, text: ledgerText(ledger) });
    }
    t.ledger = ledger;
    const out: SessionEvent[] = [];
    if (skipped > 0) {
      out.push(diagnostic('grok', 'E_SCHEMA', `${skipped} turn_completed record(s) of ${GROK_UPDATES_FILE} are not in the shape agentwatch reads; their usage is not counted`, { sessionId: t.sessionId, path: file }));
    }
    const totals = ledgerTotals(ledger);
    const held = fresh ? undefined : before ? ledgerTotals(before) : t.restored ? { tokens: t.restored.tokens, costUsd: t.restored.recordedCostUsd } : undefined;
    const same = held !== undefined && held.costUsd === totals.costUsd && sameTokens(held.tokens, totals.tokens);
    if (!same && (held !== undefined || ledger.turns > 0)) out.push({ ...ref(t.sessionId), type: 'usage', mode: 'total', tokens: totals.tokens, costUsd: totals.costUsd });
    return out;
  };

  const ledgerFromCache = (file: string): GrokLedger | undefined => {
    const remembered = cache?.sideText(file);
    return remembered === undefined ? undefined : ledgerFromText(remembered.text);
  };

  const syncOnce = async (dir: string): Promise<void> => {
    const summaryText = readOptional(path.join(dir, GROK_SUMMARY_FILE));
    // No summary: not a session (yet), or no longer one.
    if (summaryText === undefined) {
      badSummaries.delete(dir);
      return forget(dir);
    }
    let t = tracked.get(dir);
    const summary = t?.summaryText === summaryText ? undefined : parseSummary(dir, summaryText);
    if (!t && !summary) return;
    const chat = path.join(dir, GROK_CHAT_FILE);
    const info = statOptional(chat);
    const out: SessionEvent[] = [];
    let metaChanged = false;
    if (!t && summary) {
      t = open(dir, summary, summaryText, info);
      tracked.set(dir, t);
      const patch = grokMeta(summary, dir);
      // A restored state that already says all of it needs nothing (no rewrite of its cache row).
      if (t.restored === undefined || !changesNothing(patch, t.restored)) {
        out.push({ ...ref(t.sessionId), type: 'meta', patch });
        metaChanged = true;
      }
    } else if (t && summary) {
      const sessionId = grokSessionId(summary, dir);
      if (sessionId !== t.sessionId) {
        // Another session now lives here: drop the old one and start over.
        forget(dir);
        return syncOnce(dir);
      }
      t.summary = summary;
      t.summaryText = summaryText;
      t.summaryTime = grokSummaryTime(summary);
      out.push({ ...ref(t.sessionId), type: 'meta', patch: grokMeta(summary, dir) });
      metaChanged = true;
    }
    if (!t) return;
    const ofSession: SessionEvent[] = [];
    if (summary && !t.formatReported && (summary.chat_format_version ?? 0) > GROK_CHAT_FORMAT) {
      t.formatReported = true;
      const version = grokFormatLabel(summary);
      ofSession.push({
        ...diagnostic('grok', 'E_UNKNOWN_RECORD', `chat format ${summary.chat_format_version} is newer than ${GROK_CHAT_FORMAT}, the newest this version of agentwatch knows; records that do not fit are skipped`, { sessionId: t.sessionId, path: chat }),
        ...(version ? { version } : {}),
      });
    }
    if (info && t.offset > 0 && (info.size < t.offset || (t.ino !== 0 && info.ino !== t.ino))) {
      // Truncated or replaced (a rewind truncates the conversation): replay from the first byte.
      out.push({ ...ref(t.sessionId), type: 'reset' }, { ...ref(t.sessionId), type: 'meta', patch: grokMeta(t.summary, dir) });
      Object.assign(t, { offset: 0, size: 0, mtimeMs: 0, recordDiagnostics: undefined });
      metaChanged = true;
    }
    const grew = info !== undefined && (info.size !== t.size || info.mtimeMs !== t.mtimeMs);
    // Bytes past the offset with an unchanged file are an unfinished last line: not read again.
    const unread = info !== undefined && info.size > t.offset && (grew || t.offset === 0);
    const records = unread ? await readNewLines(dir, t, info) : [];
    if (!unread && info) Object.assign(t, { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
    out.push(...records);
    t.recordDiagnostics = withDiagnosticsOf(records, t.recordDiagnostics);
    // After a reset (or on a first read) the state holds no usage: the totals are sent again.
    const usage = await syncUsage(dir, t, out.some((event) => event.type === 'reset') || (t.restored === undefined && t.ledger === undefined));
    ofSession.push(...usage);
    t.sessionDiagnostics = withDiagnosticsOf(ofSession, t.sessionDiagnostics);
    out.push(...ofSession);
    const usageChanged = usage.some((event) => event.type === 'usage');
    const counted = out.some((event) => event.type === 'diagnostic');
    for (const event of out) emit(event);
    if (info && (metaChanged || grew || usageChanged || counted)) {
      const diagnostics = t.recordDiagnostics && t.sessionDiagnostics ? addCounts(t.recordDiagnostics, t.sessionDiagnostics) : (t.recordDiagnostics ?? t.sessionDiagnostics);
      emit({ ...ref(t.sessionId), type: 'checkpoint', checkpoint: { path: chat, offset: t.offset, size: Math.max(t.size, t.offset), mtimeMs: t.mtimeMs, ...(diagnostics ? { diagnostics } : {}) } });
    }
  };

  return { sync: syncOnce, trackedDirs: () => [...tracked.keys()], trim: scratch.trim };
};
