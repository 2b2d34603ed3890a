// Checked against (facts only): OpenCode `packages/opencode/src/session/index.ts` `Session.fork`
// (JSON storage, anomalyco/opencode 0002b1fa: a new session without parentID, each message copied
// with `...msg.info` under `Identifier.ascending("message")`, its parts under new part ids) and
// `src/id/id.ts` `Identifier.create` (anomalyco/opencode 0ae6794d, Kilo-Org/kilocode 0db4c820);
// the SQLite releases as Kilo-Org/kilocode has them: `session/index.ts` (00375d20) and
// `session/session.ts` (043c49bf; an assistant copy's parentID renamed through idMap, its cost set
// to 0 by Kilo) and `session/projectors.ts` (18369fa0: a message row's time_created is the
// message's time.created, its data the message without id and sessionID).
import { isDeepStrictEqual } from 'node:util';
import type { Statement } from 'better-sqlite3';
import { numberOf, parseJsonValue } from '../values.js';
import type { FamilyMessageRow } from './map.js';

/**
 * A fork of OpenCode 1.x (and Kilo, `Session.fork`) is a new session, with no link to the one it
 * was forked from, holding copies of that session's messages up to the fork point: each under a
 * new id made at the fork, with the original's data (tokens, cost, model, time.created; an
 * assistant's parentID renamed to the copy of its prompt, Kilo 7.x also zeroes its cost), in a row
 * whose time_created is the original's. The rule here finds them without a link:
 *
 * - an id tells when it was made: prefix, `_`, then 12 hex digits of (ms * 0x1000 + counter) cut
 *   to 48 bits, so the ms modulo 2^36 (about 795 days; differences are taken modulo that);
 * - a candidate is a message whose id was made more than `SKEW_MS` after its time_created, one of
 *   the session's first messages (a fork's copies are its first: the run ends at the first message
 *   that is no candidate). A session without one costs nothing more than reading its ids;
 * - a candidate is a copy when another session holds its original: a message with the same
 *   time_created and the same data (an assistant's parentID aside, and its cost where the copy's
 *   is 0) whose id was made within `SKEW_MS` of that time, which makes it older than the fork
 *   itself. Anything else (the parent deleted, an import, an original changed since) counts as
 *   before: real usage is never dropped on a guess.
 */

/** How far apart an original's id and its time_created may be; a copy's are further apart than this. */
export const SKEW_MS = 60_000;

/** An id's time is its ms modulo 2^36 (48 bits of ms * 0x1000). */
const ID_MS_SPACE = 2 ** 36;
const COUNTER = 0x1000;
const ID_SPACE = ID_MS_SPACE * COUNTER;
/** Beyond this, an id made "after" its message is one made before it, seen round the wrap. */
const MAX_AHEAD_MS = ID_MS_SPACE / 2;
const HEX12 = /^[0-9a-f]{12}$/;

const modulo = (value: number, space: number): number => ((value % space) + space) % space;

/** The prefix of an OpenCode id and the ms (modulo 2^36) it was made, or undefined for ids of another shape. */
export const idTime = (id: string): { readonly prefix: string; readonly ms: number } | undefined => {
  const cut = id.indexOf('_');
  const hex = cut > 0 ? id.slice(cut + 1, cut + 13) : '';
  if (!HEX12.test(hex)) return undefined;
  return { prefix: id.slice(0, cut), ms: Math.floor(parseInt(hex, 16) / COUNTER) };
};

/** How long after `createdMs` the id was made, modulo 2^36 ms (a small number for an id made a moment before). */
const madeAfter = (idMs: number, createdMs: number): number => modulo(idMs - modulo(createdMs, ID_MS_SPACE), ID_MS_SPACE);

interface Candidate {
  readonly row: FamilyMessageRow;
  readonly createdMs: number;
  readonly prefix: string;
}

/** The session's leading messages whose id was made more than `SKEW_MS` after their time_created (rows in load order). */
export const leadingCandidates = (messages: readonly FamilyMessageRow[]): Candidate[] => {
  const out: Candidate[] = [];
  for (const row of messages) {
    const createdMs = numberOf(row.time_created);
    const made = idTime(row.id);
    if (createdMs === undefined || !made) break;
    const after = madeAfter(made.ms, createdMs);
    if (after <= SKEW_MS || after >= MAX_AHEAD_MS) break;
    out.push({ row, createdMs, prefix: made.prefix });
  }
  return out;
};

const hex12 = (value: number): string => modulo(value, ID_SPACE).toString(16).padStart(12, '0');

/** Sorts after every id of that 12-digit time (the random tail is base62). */
const ID_TAIL_END = '~';

/**
 * The id ranges an original of `candidate` falls in: ids made within `SKEW_MS` of its
 * time_created (two ranges where that window crosses the 48-bit wrap), as [low, high, time_created, candidate index].
 */
const originalRanges = (candidate: Candidate, index: number): [string, string, number, number][] => {
  const low = modulo(candidate.createdMs - SKEW_MS, ID_MS_SPACE) * COUNTER;
  const high = modulo(candidate.createdMs + SKEW_MS, ID_MS_SPACE) * COUNTER + (COUNTER - 1);
  const id = (value: number, end = ''): string => `${candidate.prefix}_${hex12(value)}${end}`;
  if (low <= high) return [[id(low), id(high, ID_TAIL_END), candidate.createdMs, index]];
  return [
    [id(low), id(ID_SPACE - 1, ID_TAIL_END), candidate.createdMs, index],
    [id(0), id(high, ID_TAIL_END), candidate.createdMs, index],
  ];
};

/**
 * One query per fork loaded: for every candidate, the data of the messages of other sessions with
 * its time_created whose id lies in its ranges. Driven by the candidates (`json_each`; the CROSS
 * JOIN keeps them the outer loop), each a range of the primary key: the work grows with the
 * candidates, not with the database, and needs no index of its own.
 */
export const originalsSql = `SELECT json_extract(c.value, '$[3]') AS candidate, m.data AS data
  FROM json_each(@ranges) AS c
  CROSS JOIN message m ON m.id BETWEEN json_extract(c.value, '$[0]') AND json_extract(c.value, '$[1]')
  WHERE m.time_created = json_extract(c.value, '$[2]') AND m.session_id <> @session`;

/** A message's data as compared: an object, without parentID (renamed in copies), and without cost when `dropCost` (Kilo zeroes a copy's). */
const comparable = (raw: unknown, dropCost: boolean): Record<string, unknown> | undefined => {
  const json = parseJsonValue(raw);
  if (!json.ok || typeof json.value !== 'object' || json.value === null || Array.isArray(json.value)) return undefined;
  const { parentID: _parentID, ...rest } = json.value as Record<string, unknown>;
  if (!dropCost) return rest;
  const { cost: _cost, ...withoutCost } = rest;
  return withoutCost;
};

/** A candidate's data as compared, and whether its cost is left out (a copy Kilo zeroed). */
const candidateData = (raw: unknown): { readonly data: Record<string, unknown>; readonly dropCost: boolean } | undefined => {
  const data = comparable(raw, false);
  if (!data) return undefined;
  return data['cost'] === 0 ? { data: comparable(raw, true) ?? data, dropCost: true } : { data, dropCost: false };
};

/**
 * The ids of the session's messages that are copies of another session's (the rule above), or
 * undefined when it has none: most sessions, which this decides from their ids alone.
 */
export const resolveV1Copies = (statement: Statement, sessionId: string, messages: readonly FamilyMessageRow[]): ReadonlySet<string> | undefined => {
  const candidates = leadingCandidates(messages);
  if (candidates.length === 0) return undefined;
  const ranges = candidates.flatMap(originalRanges);
  const rows = statement.all({ ranges: JSON.stringify(ranges), session: sessionId }) as { candidate: unknown; data: unknown }[];
  const copies = new Set<string>();
  const parsed = new Map<number, ReturnType<typeof candidateData>>();
  for (const row of rows) {
    const index = numberOf(row.candidate);
    const candidate = index === undefined ? undefined : candidates[index];
    if (index === undefined || !candidate || copies.has(candidate.row.id)) continue;
    if (!parsed.has(index)) parsed.set(index, candidateData(candidate.row.data));
    const copy = parsed.get(index);
    const original = copy && comparable(row.data, copy.dropCost);
    if (copy && original && isDeepStrictEqual(copy.data, original)) copies.add(candidate.row.id);
  }
  return copies.size > 0 ? copies : undefined;
};
