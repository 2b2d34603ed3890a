import type { Database } from 'better-sqlite3';
import type { SessionEvent } from '../../core/session.js';
import { selectList } from '../sqlite/columns.js';
import type { DbReader, SessionListing } from '../sqlite/reader.js';
import { parseJsonValue, textOf, type JsonResult } from '../sqlite/values.js';
import { openComposerHeaders, type ComposerHeader } from './headers.js';
import { bubbleTime, mapCursorComposer, type BubbleRecord } from './map.js';
import { bubbleSchema, composerSchema, type Composer } from './schema.js';

/** Composers whose last activity is older than this are not read (docs/formats/cursor.md). */
export const CURSOR_WINDOW_MS = 48 * 60 * 60 * 1000;

const COMPOSER_PREFIX = 'composerData:';
/** The key range of one prefix: `prefix` <= key < `prefix` with its last character incremented. */
const upperBound = (prefix: string): string => `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;

interface CachedComposer {
  /** rowid and byte length of the value: changes whenever Cursor rewrites the row. */
  readonly stamp: string;
  readonly composer: Composer | undefined;
  /** Newest known activity (ms), 0 when the composer records none. */
  readonly recency: number;
}

/** Only what the replay reads: the cache must not hold Cursor's whole document per composer. */
const slim = (composer: Composer): Composer => ({
  _v: composer._v,
  name: composer.name,
  createdAt: composer.createdAt,
  lastUpdatedAt: composer.lastUpdatedAt,
  status: composer.status,
  modelConfig: composer.modelConfig ? { modelName: composer.modelConfig.modelName } : undefined,
  fullConversationHeadersOnly: composer.fullConversationHeadersOnly?.map((header) => ({ bubbleId: header.bubbleId, type: header.type })),
  conversation: composer.conversation,
});

interface KeyRow {
  readonly key: string;
  readonly rid: number;
  readonly len: number | null;
}

/**
 * Reads Cursor's `cursorDiskKV` (`composerData:<id>` and `bubbleId:<id>:<bubble>` rows). The
 * listing keeps parsed composers between polls and re-reads a composer's value only when its row
 * changed, so a years-old database costs an index scan of composer keys plus one small range
 * aggregate per composer of the last 48 hours (`windowMs`: the search index reads every composer).
 */
export const openCursorReader = (db: Database, dbPath: string, windowMs = CURSOR_WINDOW_MS): DbReader => {
  // Throws E_DB_SCHEMA naming the table or column when Cursor's layout is not the known one.
  selectList(db, 'cursorDiskKV', ['key', 'value'], []);
  const composerKeys = db.prepare(`SELECT key, rowid AS rid, octet_length(value) AS len FROM cursorDiskKV WHERE key >= ? AND key < ?`);
  const valueOf = db.prepare(`SELECT value FROM cursorDiskKV WHERE key = ?`).pluck();
  const bubbleStamp = db.prepare(`SELECT count(*) || ':' || total(rowid) || ':' || total(octet_length(value)) FROM cursorDiskKV WHERE key >= ? AND key < ?`).pluck();
  const bubbleRows = db.prepare(`SELECT key, value FROM cursorDiskKV WHERE key >= ? AND key < ?`);
  const cache = new Map<string, CachedComposer>();
  // Cursor 3.x's composer index: which composers are sub-agents, and in which folder each ran.
  const readComposerIndex = openComposerHeaders(db);
  let composerIndex: ReadonlyMap<string, ComposerHeader> = new Map();

  const bubblePrefix = (composerId: string): string => `bubbleId:${composerId}:`;

  /** Its last bubble's own time (timingInfo.clientEndTime, or createdAt in older versions). */
  const lastBubbleAt = (composerId: string, composer: Composer): number => {
    const lastId = composer.fullConversationHeadersOnly?.at(-1)?.bubbleId;
    if (!lastId) return 0;
    const json = parseJsonValue(valueOf.get(`${bubblePrefix(composerId)}${lastId}`));
    const bubble = json.ok ? bubbleSchema.safeParse(json.value) : undefined;
    return (bubble?.success ? bubbleTime(bubble.data) : undefined) ?? 0;
  };

  const readComposer = (composerId: string, stamp: string, now: number, diagnostics: SessionEvent[]): CachedComposer => {
    const raw: unknown = valueOf.get(`${COMPOSER_PREFIX}${composerId}`);
    // Every Cursor database holds composer rows whose value is NULL (composers Cursor created and
    // never filled): nothing to read, nothing the user can or should do about them.
    if (raw === null) return { stamp, composer: undefined, recency: 0 };
    const json = parseJsonValue(raw);
    const parsed = json.ok ? composerSchema.safeParse(json.value) : undefined;
    if (!json.ok || !parsed?.success) {
      const why = json.ok ? (parsed?.error?.issues[0]?.message ?? 'invalid') : json.error;
      diagnostics.push({ type: 'diagnostic', agent: 'cursor', sessionId: composerId, code: 'E_SCHEMA', message: `composer ${composerId}: ${why}`, path: dbPath });
      return { stamp, composer: undefined, recency: 0 };
    }
    const composer = parsed.data;
    // The newest of the composer's last update and its last bubble's time; creation only when
    // neither exists (then it bounds the 48 h window, it is never shown as activity).
    const recency = Math.max(composer.lastUpdatedAt ?? 0, lastBubbleAt(composerId, composer)) || composer.createdAt || 0;
    // An old composer is only remembered by its stamp; it is read again when Cursor rewrites it.
    if (recency > 0 && now - recency > windowMs) return { stamp, composer: undefined, recency };
    return { stamp, composer: slim(composer), recency };
  };

  const hasConversation = (composer: Composer): boolean =>
    (composer.fullConversationHeadersOnly?.length ?? 0) > 0 || (composer.conversation?.length ?? 0) > 0;

  const list = (now: number): SessionListing => {
    const diagnostics: SessionEvent[] = [];
    const stamps = new Map<string, string>();
    const activeAt = new Map<string, number>();
    const seen = new Set<string>();
    composerIndex = readComposerIndex();
    for (const row of composerKeys.all(COMPOSER_PREFIX, upperBound(COMPOSER_PREFIX)) as KeyRow[]) {
      const composerId = row.key.slice(COMPOSER_PREFIX.length);
      if (composerId === '') {
        // No id to name a session by (or to resume it with).
        diagnostics.push({ type: 'diagnostic', agent: 'cursor', code: 'E_SCHEMA', message: `composer row without an id (key "${COMPOSER_PREFIX}") skipped`, path: dbPath });
        continue;
      }
      seen.add(composerId);
      const stamp = `${row.rid}:${row.len ?? ''}`;
      let cached = cache.get(composerId);
      if (cached?.stamp !== stamp) {
        cached = readComposer(composerId, stamp, now, diagnostics);
        cache.set(composerId, cached);
      }
      const { composer, recency } = cached;
      if (!composer || !hasConversation(composer)) continue;
      if (recency > 0 && now - recency > windowMs) continue;
      const prefix = bubblePrefix(composerId);
      const header = composerIndex.get(composerId);
      const headerStamp = header ? `${header.subagent ? 'sub' : ''}:${header.cwd ?? ''}` : '';
      stamps.set(composerId, `${stamp}|${String(bubbleStamp.get(prefix, upperBound(prefix)))}|${headerStamp}`);
      if (recency > 0) activeAt.set(composerId, recency);
    }
    for (const composerId of cache.keys()) if (!seen.has(composerId)) cache.delete(composerId);
    return { stamps, diagnostics, activeAt };
  };

  const load = (composerId: string): readonly SessionEvent[] => {
    const composer = cache.get(composerId)?.composer;
    if (!composer) return [];
    const records: BubbleRecord[] = [];
    const headers = composer.fullConversationHeadersOnly ?? [];
    if (headers.length > 0) {
      const prefix = bubblePrefix(composerId);
      const byId = new Map<string, unknown>();
      for (const row of bubbleRows.all(prefix, upperBound(prefix)) as { key: string; value: unknown }[]) {
        byId.set(row.key.slice(prefix.length), row.value);
      }
      for (const header of headers) {
        if (!byId.has(header.bubbleId)) continue;
        const value = byId.get(header.bubbleId);
        records.push({ bubbleId: header.bubbleId, json: parseJsonValue(value), raw: textOf(value) ?? '' });
      }
    } else {
      for (const [index, value] of (composer.conversation ?? []).entries()) {
        const json: JsonResult = { ok: true, value };
        const id = typeof value === 'object' && value !== null && 'bubbleId' in value ? String(value.bubbleId) : String(index);
        records.push({ bubbleId: id, json, raw: JSON.stringify(value) });
      }
    }
    return mapCursorComposer({ dbPath }, composerId, composer, records, composerIndex.get(composerId));
  };

  return { list, load };
};
