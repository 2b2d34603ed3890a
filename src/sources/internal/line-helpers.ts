import type { z } from 'zod';
import type { AgentKind } from '../../core/agents.js';
import type { SessionEvent } from '../../core/session.js';
import { diagnostic } from './file-parser.js';
import { elideLongStrings, parseJson } from './skim.js';
import { timeMs } from './times.js';

/** Epoch ms of an ISO timestamp, 0 when absent or unparseable (or a number that is no time: times.ts). */
export const epochMs = (value: unknown): number => {
  if (typeof value === 'number') return timeMs(value);
  if (typeof value !== 'string') return 0;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : 0;
};

/**
 * A record whose timestamp is there but is no date (`epochMs` gave 0): counted as E_SCHEMA, so
 * doctor lists it with its line; the record is still read, without a time (a session whose every
 * record is so has no time to be listed by).
 */
export const undatedRecord = (agent: AgentKind, value: unknown, at: number, where: { readonly sessionId: string; readonly path: string }): SessionEvent[] =>
  at === 0 && value !== undefined && value !== null && value !== ''
    ? [diagnostic(agent, 'E_SCHEMA', `timestamp ${JSON.stringify(value).slice(0, 60)} is not a date; the record is read without a time`, where)]
    : [];

/** Lines above this are parsed with their long string values cut short (see `elideLongStrings`). */
export const ELIDE_OVER_BYTES = 2 * 1024;
/** Bytes kept of each long string not kept whole: more than any title or patch header agentwatch shows. */
export const ELIDE_KEEP_BYTES = 1024;

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly event?: SessionEvent };

/**
 * JSON.parse + zod safeParse of one line: a non-JSON line is E_JUNK_LINE, a record of the wrong
 * shape E_SCHEMA, a blank line nothing at all. Big lines (tool output) are skimmed first: their
 * long strings are cut before parsing, which keeps a cold start well under "parse everything".
 * The values of `keepKeys` are kept whole: message text reaches `turn.text` in full (the fold keeps
 * 300 characters; the search index needs every word). `accepts`: a guard that accepts exactly
 * what `schema` accepts, without its copy (a refused record still gets the schema's diagnostic).
 */
export const decodeLine = <S extends z.ZodType>(
  agent: AgentKind,
  schema: S,
  bytes: Buffer,
  where: { readonly sessionId: string; readonly path: string },
  keepKeys: readonly Buffer[] = [],
  accepts?: (json: unknown) => json is z.infer<S>,
): Decoded<z.infer<S>> => {
  const text = (bytes.length > ELIDE_OVER_BYTES ? elideLongStrings(bytes, ELIDE_KEEP_BYTES, keepKeys) : bytes).toString('utf8');
  if (text.trim() === '') return { ok: false };
  const json = parseJson(text);
  if (json === undefined || json === null || typeof json !== 'object') {
    return { ok: false, event: diagnostic(agent, 'E_JUNK_LINE', `not a JSON object: ${text.slice(0, 80)}`, where) };
  }
  // A hand-written twin of the schema (same acceptance, no copy) answers first where there is one.
  if (accepts?.(json)) return { ok: true, value: json };
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid record';
    return { ok: false, event: diagnostic(agent, 'E_SCHEMA', `unexpected record shape (${at})`, where) };
  }
  return { ok: true, value: parsed.data as z.infer<S> };
};
