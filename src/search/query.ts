import type Database from 'better-sqlite3';
import type { SessionNames } from '../config/session-names.js';
import type { AgentKind } from '../core/agents.js';
import { lastPrompt, sessionName } from '../core/session-name.js';
import { rfc3339 } from '../core/time.js';
import { MESSAGE_TEXT_MAX } from '../streams/constants.js';
import { shortName } from '../streams/views.js';
import { prepareQuery, type PreparedQuery } from './query-syntax.js';
import { unsegment } from './segment.js';
import { bracketHits, cleanSnippet, fallbackSnippet, hasHit, HIT_CLOSE, HIT_OPEN } from './snippet.js';

/** One result of `agentwatch search --json` (docs/search.md). */
export interface SearchResult {
  readonly session_id: string;
  readonly agent: AgentKind;
  readonly cwd: string;
  /** The user's name for the session (session-names.json), else the agent's own title: the NAME `agentwatch sessions` shows. */
  readonly title: string;
  /** What every interface calls the session: the title, else the latest prompt, else the folder (core/session-name.ts). */
  readonly display_name: string;
  /** RFC 3339 UTC, "" when unknown. */
  readonly last_activity: string;
  readonly resume_command: string;
  /** bm25 relevance of the session's best message, higher is better. */
  readonly score: number;
  /** Best matches first; each hit in `text` is marked `[...]`. */
  readonly snippets: readonly SearchSnippet[];
}

interface SearchSnippet {
  readonly role: 'user' | 'assistant';
  readonly timestamp: string;
  readonly text: string;
}

export interface SearchOptions {
  readonly agents: readonly AgentKind[];
  readonly limit: number;
  /** `exclude_cwd_substrings`: sessions under them are never returned. */
  readonly excludeCwd: readonly string[];
  /** session-names.json: a renamed session's title is its name, as everywhere. */
  readonly customNames?: SessionNames;
}

/** A query FTS5 cannot parse: the command exits 2 with this message, the API answers 400. */
export class QuerySyntaxError extends Error {}

const SNIPPETS_PER_SESSION = 3;
/** Tokens of context FTS5 puts in a snippet. */
const SNIPPET_TOKENS = 24;

/** FTS5's error, said for people: what is wrong with what they typed. */
const explain = (message: string): string => {
  const text = message.replace(/^fts5: /, '');
  if (/unterminated string/.test(text)) return 'a quote is not closed';
  if (/expected integer/.test(text)) return `${text} (the distance in NEAR(a b, N) is a whole number, 0 or more)`;
  if (/syntax error near ""$/.test(text)) return 'it ends too early (an AND/OR/NOT with nothing after it, or a parenthesis left open)';
  const near = /syntax error near "(.*)"$/.exec(text);
  if (near) return `unexpected "${near[1] ?? ''}" (quote it to search for it as a word)`;
  return text;
};

const isQueryError = (message: string): boolean => /fts5|syntax|no such column|unterminated|malformed MATCH|unknown special query|expected integer/i.test(message);

interface SessionHit {
  readonly key: string;
  readonly best: number;
  readonly agent: AgentKind;
  readonly session_id: string;
  readonly cwd: string;
  readonly title: string;
  readonly last_activity: number;
  readonly resume: string;
}

interface MessageHit {
  readonly key: string;
  readonly role: 'user' | 'assistant';
  readonly at: number;
  readonly snip: string;
  readonly text: string;
}

/** A snippet with its hits between HIT_OPEN/HIT_CLOSE (FTS5's, or ours for a camelCase part). */
const snippetOf = (hit: MessageHit, prepared: PreparedQuery): string => {
  const cleaned = cleanSnippet(hit.snip);
  return hasHit(cleaned) ? cleaned : (fallbackSnippet(unsegment(hit.text), prepared.terms) ?? cleaned);
};

/** User messages read per session to find the latest one that names it (harness echoes are skipped). */
const PROMPTS_READ = 5;

/**
 * The latest prompt that names each of `keys`' sessions, as the monitor's lists name an untitled
 * session (from the same first MESSAGE_TEXT_MAX characters); only asked for the sessions without
 * a title of their own.
 */
const latestPrompts = (db: Database.Database, keys: readonly string[]): Map<string, string> => {
  const found = new Map<string, string>();
  if (keys.length === 0) return found;
  const rows = db
    .prepare<unknown[], { key: string; text: string }>(
      `SELECT key, text FROM (
         SELECT key, text, at, row_number() OVER (PARTITION BY key ORDER BY at DESC) AS n
         FROM messages WHERE role = 'user' AND key IN (${keys.map(() => '?').join(', ')}))
       WHERE n <= ${PROMPTS_READ} ORDER BY key, at`,
    )
    .all(...keys);
  const byKey = new Map<string, { role: string; text: string }[]>();
  for (const row of rows) byKey.set(row.key, [...(byKey.get(row.key) ?? []), { role: 'user', text: unsegment(row.text).slice(0, MESSAGE_TEXT_MAX) }]);
  for (const [key, list] of byKey) found.set(key, lastPrompt(list));
  return found;
};

/**
 * Sessions ranked by their best message's bm25, each with its best snippets (hits between
 * HIT_OPEN/HIT_CLOSE; `toJsonResults` writes them as `[...]`). Phrase, prefix and boolean queries
 * as FTS5 reads them, after `prepareQuery`. Throws QuerySyntaxError for a malformed query.
 */
export const searchIndex = (db: Database.Database, query: string, options: SearchOptions): SearchResult[] => {
  const prepared = prepareQuery(query);
  if (prepared.match.trim() === '') throw new QuerySyntaxError(`malformed search query ${JSON.stringify(query)}: it has no word to search for`);
  if (options.agents.length === 0) return [];
  const fragments = options.excludeCwd.filter((f) => f !== '');
  const scope = `s.sidechain = 0 AND s.agent IN (${options.agents.map(() => '?').join(', ')})${fragments.map(() => ' AND instr(s.cwd, ?) = 0').join('')}`;
  let sessions: SessionHit[];
  let messages: MessageHit[];
  try {
    // 1: each session's best message (bm25 is lower-is-better), the best sessions first.
    sessions = db
      .prepare<unknown[], SessionHit>(
        `SELECT h.key AS key, h.best AS best, s.agent AS agent, s.session_id AS session_id, s.cwd AS cwd, s.title AS title, s.last_activity AS last_activity, s.resume AS resume
         FROM (SELECT key, min(rank) AS best FROM messages WHERE messages MATCH ? GROUP BY key) h
         JOIN sessions s ON s.key = h.key
         WHERE ${scope}
         ORDER BY h.best LIMIT ?`,
      )
      .all(prepared.match, ...options.agents, ...fragments, options.limit);
    if (sessions.length === 0) return [];
    // 2: the best few messages of each of those sessions (auxiliary functions such as snippet()
    // cannot run under a window function: the snippets are a third query, of those rows only).
    const keys = sessions.map((s) => s.key);
    const best = db
      .prepare<unknown[], { id: number }>(
        `SELECT id FROM (
           SELECT rowid AS id, row_number() OVER (PARTITION BY key ORDER BY rank) AS n
           FROM messages WHERE messages MATCH ? AND key IN (${keys.map(() => '?').join(', ')}))
         WHERE n <= ${SNIPPETS_PER_SESSION}`,
      )
      .all(prepared.match, ...keys)
      .map((row) => row.id);
    messages = db
      .prepare<unknown[], MessageHit>(
        `SELECT key, role, at, text, snippet(messages, 0, '${HIT_OPEN}', '${HIT_CLOSE}', '…', ${SNIPPET_TOKENS}) AS snip
         FROM messages WHERE messages MATCH ? AND rowid IN (${best.map(() => '?').join(', ')}) ORDER BY rank`,
      )
      .all(prepared.match, ...best);
  } catch (error) {
    const message = (error as Error).message;
    if (isQueryError(message)) throw new QuerySyntaxError(`malformed search query ${JSON.stringify(query)}: ${explain(message)}`);
    throw error;
  }
  const byKey = new Map<string, MessageHit[]>();
  for (const m of messages) byKey.set(m.key, [...(byKey.get(m.key) ?? []), m]);
  const titleOf = (s: SessionHit): string => options.customNames?.[s.session_id] || s.title;
  const prompts = latestPrompts(
    db,
    sessions.filter((s) => titleOf(s) === '').map((s) => s.key),
  );
  return sessions.map((s) => ({
    session_id: s.session_id,
    agent: s.agent,
    cwd: s.cwd,
    title: titleOf(s),
    display_name: sessionName(
      { custom_name: options.customNames?.[s.session_id] ?? '', agent_name: s.title, short_name: shortName(s.cwd), session_id: s.session_id },
      prompts.get(s.key) ?? '',
    ).text,
    last_activity: rfc3339(s.last_activity),
    resume_command: s.resume,
    // bm25 is negative, lower is better: reported as a positive relevance.
    score: Number((-s.best).toPrecision(4)),
    snippets: (byKey.get(s.key) ?? []).map((m) => ({ role: m.role, timestamp: rfc3339(m.at), text: snippetOf(m, prepared) })),
  }));
};

/** The wire form (`--json`, `GET /api/search`): hits marked `[...]`. */
export const toJsonResults = (results: readonly SearchResult[]): SearchResult[] =>
  results.map((r) => ({ ...r, snippets: r.snippets.map((s) => ({ ...s, text: bracketHits(s.text) })) }));
