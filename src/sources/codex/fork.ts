import type { TokenCounts } from '../../core/session.js';
import { findInHead } from '../internal/read-lines.js';
import { parseJson } from '../internal/skim.js';

/**
 * `codex fork` starts a new thread whose token totals go on from the parent's last total (Codex
 * seeds the fork with it), so every `total_token_usage` of the fork's rollout holds the parent's
 * spend too. The fork's own spend is each total less that base: the first total the fork records
 * less that turn's own usage (`last_token_usage`). A segment of a thread continues the thread's
 * totals and is not a fork (file-family.ts folds it into the thread).
 */

/** A `token_count` usage as Codex counts it: cached input and cache writes (0.145+) are part of input. */
export interface RawUsage {
  readonly input: number;
  readonly cached: number;
  readonly cacheWrite: number;
  readonly output: number;
}

interface CodexUsage {
  readonly input_tokens?: number | undefined;
  readonly cached_input_tokens?: number | undefined;
  readonly cache_write_input_tokens?: number | undefined;
  readonly output_tokens?: number | undefined;
}

export const ZERO_USAGE: RawUsage = { input: 0, cached: 0, cacheWrite: 0, output: 0 };

/** Cached and cache-write input never more than the input they are part of. */
const bounded = (input: number, cached: number, cacheWrite: number, output: number): RawUsage => {
  const read = Math.min(cached, input);
  return { input, cached: read, cacheWrite: Math.min(cacheWrite, input - read), output };
};

export const rawUsageOf = (usage: CodexUsage): RawUsage => bounded(usage.input_tokens ?? 0, usage.cached_input_tokens ?? 0, usage.cache_write_input_tokens ?? 0, usage.output_tokens ?? 0);

/** Usage counted apart: cached input and cache writes out of input (tokens as agentwatch counts them). */
export const tokensOf = (raw: RawUsage): TokenCounts => ({ input: raw.input - raw.cached - raw.cacheWrite, output: raw.output, cacheCreation: raw.cacheWrite, cacheRead: raw.cached });

/** The usage a state's tokens count, as Codex counts it. */
export const rawUsageOfTokens = (tokens: TokenCounts): RawUsage => ({
  input: tokens.input + tokens.cacheRead + tokens.cacheCreation,
  cached: tokens.cacheRead,
  cacheWrite: tokens.cacheCreation,
  output: tokens.output,
});

export const minusUsage = (a: RawUsage, b: RawUsage): RawUsage =>
  bounded(Math.max(0, a.input - b.input), Math.max(0, a.cached - b.cached), Math.max(0, a.cacheWrite - b.cacheWrite), Math.max(0, a.output - b.output));

/**
 * Since about 0.14x a fork's rollout goes on, right after its own session_meta, with a copy of its
 * parent's: the parent's session_meta, turns and every `token_count`, stamped when the fork was
 * made. The copy ends at the fork's first turn of its own: a turn whose id (a UUIDv7) was made
 * at or after the fork; for ids that tell no time (older builds, tests), a turn begun more than
 * REPLAY_BURST_MS after the fork's session_meta (the copy is written in one burst).
 */
const REPLAY_BURST_MS = 2_000;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The time a UUIDv7 was made (its first 48 bits, ms since the epoch); undefined for another id. */
export const uuidV7Time = (id: string | undefined): number | undefined =>
  id !== undefined && UUID_V7.test(id) ? Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : undefined;

/** True for a turn the fork made itself (not one of the parent's it copied); `forkedAt` is when the fork was made. */
export const isOwnTurn = (turnId: string | undefined, turnAt: number, forkedAt: number): boolean => {
  const made = uuidV7Time(turnId);
  return made !== undefined ? made >= forkedAt : turnAt - forkedAt > REPLAY_BURST_MS;
};

/**
 * The parent's total a fork's totals start from, found at the first total this parser reads:
 * that total less its turn's own usage, less what the fork had counted before (`counted`: a
 * parser resumed mid-file after a warm start).
 */
export const forkBase = (total: RawUsage, last: RawUsage | undefined, counted: RawUsage): RawUsage =>
  last === undefined ? ZERO_USAGE : minusUsage(minusUsage(total, last), counted);

/** How much of a rollout's first line is read to learn whether it is a fork (its session_meta). */
const FIRST_LINE_MAX = 1024 * 1024;

/**
 * True when the rollout's first record (its session_meta) names a thread it was forked from. For
 * a parser resumed after a warm start: it does not see that record again. The first line is cut
 * as the reader cuts every line (lines.ts: a byte-order mark, a `\r`).
 */
export const isForkRollout = (file: string): boolean =>
  // Unreadable now, or no whole first line: the totals are taken as they are.
  findInHead(file, FIRST_LINE_MAX, (first) => {
    if (first.kind !== 'line') return false;
    const record = parseJson(first.bytes.toString('utf8')) as { type?: unknown; payload?: { id?: unknown; forked_from_id?: unknown } } | undefined;
    const forkedFrom = record?.type === 'session_meta' ? record.payload?.forked_from_id : undefined;
    return typeof forkedFrom === 'string' && forkedFrom !== '' && forkedFrom !== record?.payload?.id;
  }) ?? false;
