// How OpenCode 1.x and Kilo make a fork (`Session.fork`; docs/formats/opencode.md): a new session
// without parentID, each message copied with its data under a new ascending message id, its parts
// under new part ids; an assistant copy's parentID renamed to the copy of its prompt, its cost set
// to 0 by Kilo; a message row's time_created is the message's time.created, its data the message
// without id and sessionID.
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
 *   itself;
 * - with no original left (the session first forked was deleted), the holders of the same message
 *   are all copies, made when each fork was made: a fork of a fork holds copies of its parent's
 *   copies. The earliest made owns the message (counts it), every later one is a copy, so a chain
 *   A -> B -> C whose A was deleted counts A's messages once, in B. The holders are looked for in
 *   the sessions made between the message and the candidate (a session id tells when it was made,
 *   as a message id does, descending), so an unrelated session never is one: its messages are
 *   neither as old nor identical.
 *
 * Anything else (a single fork of a deleted session, an import, an original changed since) counts
 * as before: real usage is never dropped on a guess, and a message is a copy only where another
 * session counts it.
 */

/** How far apart an original's id and its time_created may be; a copy's are further apart than this. */
const SKEW_MS = 60_000;

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
  /** How long after `createdMs` its id was made (ms, more than `SKEW_MS`). */
  readonly after: number;
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
    out.push({ row, createdMs, prefix: made.prefix, after });
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

/**
 * One query per fork whose copies have no original left: the messages, with a time_created
 * between the first and the last of those copies', of the sessions made between the first copy's
 * time_created and the moment the last copy was made (`@sessions`: ranges of session ids, which
 * descend with time), through the primary key of `session` and the (session_id, time_created, id)
 * index of `message` (the CROSS JOINs keep that order): the work grows with the sessions made
 * meanwhile, not with their messages.
 */
export const laterHoldersSql = `SELECT m.id AS id, m.time_created AS time_created, m.data AS data
  FROM json_each(@sessions) AS r
  CROSS JOIN session s ON s.id BETWEEN json_extract(r.value, '$[0]') AND json_extract(r.value, '$[1]')
  CROSS JOIN message m ON m.session_id = s.id AND m.time_created BETWEEN @from AND @to
  WHERE s.id <> @session`;

/** The prefix of OpenCode session ids. */
const SESSION_PREFIX = 'ses';

/**
 * The ranges of ids of sessions made from `fromMs` to `toMs` (modulo 2^36; two ranges where the
 * window crosses the wrap): a session id holds the 48-bit complement of (ms * 0x1000 + counter).
 */
const sessionRanges = (fromMs: number, toMs: number): [string, string][] => {
  const id = (made: number, end = ''): string => `${SESSION_PREFIX}_${hex12(ID_SPACE - 1 - made)}${end}`;
  const low = modulo(fromMs, ID_MS_SPACE) * COUNTER;
  const high = modulo(toMs, ID_MS_SPACE) * COUNTER + (COUNTER - 1);
  // Descending: the latest made has the lowest id.
  if (low <= high) return [[id(high), id(low, ID_TAIL_END)]];
  return [
    [id(ID_SPACE - 1), id(low, ID_TAIL_END)],
    [id(high), id(0, ID_TAIL_END)],
  ];
};

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

/** Whether a holder of a candidate's message, made `after` ms after its time_created (id `id`), was made before the candidate: it owns the message then. */
const madeBefore = (after: number, id: string, candidate: Candidate): boolean =>
  after < candidate.after || (after === candidate.after && id < candidate.row.id);

/** The statements the rule runs: originals (`originalsSql`) and, where none is left, the other holders (`laterHoldersSql`). */
export interface V1ForkStatements {
  readonly originals: Statement;
  readonly laterHolders: Statement | undefined;
}

/**
 * The ids of the `orphans` (candidates with no original left) that another session holds a copy
 * of made before theirs: that copy is the one counted.
 */
const ownedElsewhere = (
  statement: Statement,
  sessionId: string,
  orphans: readonly { readonly candidate: Candidate; readonly index: number }[],
  sameMessage: (index: number, data: unknown) => boolean,
): string[] => {
  const created = orphans.map(({ candidate }) => candidate.createdMs);
  const from = Math.min(...created);
  const to = Math.max(...created);
  const lastMade = Math.max(...orphans.map(({ candidate }) => candidate.createdMs + candidate.after));
  const rows = statement.all({ sessions: JSON.stringify(sessionRanges(from, lastMade)), from, to, session: sessionId }) as { id: unknown; time_created: unknown; data: unknown }[];
  const owned: string[] = [];
  for (const { candidate, index } of orphans) {
    const held = rows.some((row) => {
      const id = typeof row.id === 'string' ? row.id : '';
      const made = idTime(id);
      if (!made || made.prefix !== candidate.prefix || numberOf(row.time_created) !== candidate.createdMs) return false;
      return madeBefore(madeAfter(made.ms, candidate.createdMs), id, candidate) && sameMessage(index, row.data);
    });
    if (held) owned.push(candidate.row.id);
  }
  return owned;
};

/**
 * The ids of the session's messages that are copies of another session's (the rule above), or
 * undefined when it has none: most sessions, which this decides from their ids alone.
 */
export const resolveV1Copies = (statements: V1ForkStatements, sessionId: string, messages: readonly FamilyMessageRow[]): ReadonlySet<string> | undefined => {
  const candidates = leadingCandidates(messages);
  if (candidates.length === 0) return undefined;
  const ranges = candidates.flatMap(originalRanges);
  const rows = statements.originals.all({ ranges: JSON.stringify(ranges), session: sessionId }) as { candidate: unknown; data: unknown }[];
  const copies = new Set<string>();
  const parsed = new Map<number, ReturnType<typeof candidateData>>();
  const sameMessage = (index: number, data: unknown): boolean => {
    const candidate = candidates[index];
    if (!candidate) return false;
    if (!parsed.has(index)) parsed.set(index, candidateData(candidate.row.data));
    const copy = parsed.get(index);
    const other = copy && comparable(data, copy.dropCost);
    return copy !== undefined && other !== undefined && isDeepStrictEqual(copy.data, other);
  };
  for (const row of rows) {
    const index = numberOf(row.candidate);
    const candidate = index === undefined ? undefined : candidates[index];
    if (index === undefined || !candidate || copies.has(candidate.row.id)) continue;
    if (sameMessage(index, row.data)) copies.add(candidate.row.id);
  }
  const orphans = candidates.map((candidate, index) => ({ candidate, index })).filter(({ candidate }) => !copies.has(candidate.row.id));
  if (orphans.length > 0 && statements.laterHolders) {
    for (const id of ownedElsewhere(statements.laterHolders, sessionId, orphans, sameMessage)) copies.add(id);
  }
  return copies.size > 0 ? copies : undefined;
};
