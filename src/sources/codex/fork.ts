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

/** A `token_count` usage as Codex counts it: cached input is part of input. */
export interface RawUsage {
  readonly input: number;
  readonly cached: number;
  readonly output: number;
}

interface CodexUsage {
  readonly input_tokens?: number | undefined;
  readonly cached_input_tokens?: number | undefined;
  readonly output_tokens?: number | undefined;
}

export const ZERO_USAGE: RawUsage = { input: 0, cached: 0, output: 0 };

export const rawUsageOf = (usage: CodexUsage): RawUsage => {
  const input = usage.input_tokens ?? 0;
  return { input, cached: Math.min(usage.cached_input_tokens ?? 0, input), output: usage.output_tokens ?? 0 };
};

/** Usage counted apart: cached input out of input (tokens as agentwatch counts them). */
export const tokensOf = (raw: RawUsage): TokenCounts => ({ input: raw.input - raw.cached, output: raw.output, cacheCreation: 0, cacheRead: raw.cached });

/** The usage a state's tokens count, as Codex counts it. */
export const rawUsageOfTokens = (tokens: TokenCounts): RawUsage => ({ input: tokens.input + tokens.cacheRead, cached: tokens.cacheRead, output: tokens.output });

export const minusUsage = (a: RawUsage, b: RawUsage): RawUsage => {
  const input = Math.max(0, a.input - b.input);
  return { input, cached: Math.min(input, Math.max(0, a.cached - b.cached)), output: Math.max(0, a.output - b.output) };
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
