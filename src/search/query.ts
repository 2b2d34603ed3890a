import type Database from 'better-sqlite3';
import type { AgentKind } from '../core/agents.js';

/** One result of `agentwatch search --json` (PRODUCT.md section 9). */
export interface SearchResult {
  readonly session_id: string;
  readonly agent: AgentKind;
  readonly cwd: string;
  readonly title: string;
  /** RFC 3339 UTC, "" when unknown. */
  readonly last_activity: string;
  readonly resume_command: string;
  /** bm25 relevance, higher is better. */
  readonly score: number;
  /** Best matches first; each hit in `text` is marked `[...]`. */
  readonly snippets: readonly { readonly role: 'user' | 'assistant'; readonly timestamp: string; readonly text: string }[];
}

export interface SearchOptions {
  readonly agents: ReadonlySet<AgentKind>;
  readonly limit: number;
  /** Sessions whose cwd an exclusion hides are never returned. */
  readonly excluded: (cwd: string) => boolean;
}

/** A query FTS5 cannot parse: the command exits 2 with this message, the API answers 400. */
export class QuerySyntaxError extends Error {}

const SNIPPETS_PER_SESSION = 3;
/** Matching blocks looked at per query (best first): enough to fill `limit` sessions with snippets. */
const HITS_SCANNED = 2_000;

interface HitRow {
  readonly key: string;
  readonly role: 'user' | 'assistant';
  readonly at: number;
  readonly snip: string;
  readonly rank: number;
  readonly agent: AgentKind | null;
  readonly session_id: string | null;
  readonly cwd: string | null;
  readonly title: string | null;
  readonly last_activity: number | null;
  readonly resume: string | null;
}

const iso = (ms: number | null): string => (ms && ms > 0 ? new Date(ms).toISOString() : '');

/**
 * Sessions ranked by their best block's bm25, each with its best snippets. Phrase ("..."),
 * prefix (word*) and boolean (AND OR NOT, parentheses) queries as FTS5 reads them.
 */
export const searchIndex = (db: Database.Database, query: string, options: SearchOptions): SearchResult[] => {
  let hits: HitRow[];
  try {
    hits = db
      .prepare<[string, number], HitRow>(
        `SELECT m.key AS key, m.role AS role, m.at AS at, snippet(messages, 0, '[', ']', '…', 16) AS snip, bm25(messages) AS rank,
                s.agent AS agent, s.session_id AS session_id, s.cwd AS cwd, s.title AS title, s.last_activity AS last_activity, s.resume AS resume
         FROM messages m LEFT JOIN sessions s ON s.key = m.key
         WHERE messages MATCH ? ORDER BY rank LIMIT ?`,
      )
      .all(query, HITS_SCANNED);
  } catch (error) {
    const message = (error as Error).message;
    if (/fts5|syntax|no such column|unterminated|malformed/i.test(message)) throw new QuerySyntaxError(`malformed search query ${JSON.stringify(query)}: ${message.replace(/^fts5: /, '')}`);
    throw error;
  }
  const bySession = new Map<string, { row: HitRow; snippets: HitRow[] }>();
  for (const hit of hits) {
    if (!hit.agent || !hit.session_id || !options.agents.has(hit.agent) || options.excluded(hit.cwd ?? '')) continue;
    const entry = bySession.get(hit.key) ?? { row: hit, snippets: [] };
    if (entry.snippets.length < SNIPPETS_PER_SESSION) entry.snippets.push(hit);
    bySession.set(hit.key, entry);
  }
  return [...bySession.values()].slice(0, options.limit).map(({ row, snippets }) => ({
    session_id: row.session_id ?? '',
    agent: row.agent as AgentKind,
    cwd: row.cwd ?? '',
    title: row.title ?? '',
    last_activity: iso(row.last_activity),
    resume_command: row.resume ?? '',
    // bm25 is lower-is-better and negative: report it as a positive relevance.
    score: Math.round(-row.rank * 1000) / 1000,
    snippets: snippets.map((s) => ({ role: s.role, timestamp: iso(s.at), text: s.snip })),
  }));
};
