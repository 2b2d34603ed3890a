import type { LimitAgent } from '../core/agents.js';

/** The six rows of the summary table, in print order (cursor reports two). */
export type LimitRowLabel = 'Claude' | 'Codex' | 'Grok' | 'Kimi' | 'Cursor Models' | 'Cursor API';

/** Which rows each agent produces; cursor's two rows appear or disappear together. */
export const ROWS_OF = {
  claude: ['Claude'],
  codex: ['Codex'],
  grok: ['Grok'],
  kimi: ['Kimi'],
  cursor: ['Cursor Models', 'Cursor API'],
} as const satisfies Record<LimitAgent, readonly LimitRowLabel[]>;

/**
 * One rate-limit or billing window as a provider reported it, before any clock is
 * applied. Elapsed/expected/pace are derived later from `now` (see pace.ts).
 */
export interface LimitWindow {
  /** `5-hour`, `7-day`, `weekly`, `monthly`, `daily`, `N-day`... */
  readonly label: string;
  /** Window length in seconds when known (reported, implied by the key, or end - start). */
  readonly windowSeconds?: number;
  /** Share of the quota consumed, 0-100 (may exceed 100; clamped only for display). */
  readonly usedPercent: number;
  /** Rollover instant in epoch ms; `null` when the window has not started (claude idle). */
  readonly resetsAt: number | null;
  /** Explicit start in epoch ms (grok, cursor); otherwise implied by resetsAt - windowSeconds. */
  readonly startsAt?: number;
  /**
   * Data source and absolute counts, e.g. `611 of 2048 requests used`; for Codex, `live` or
   * `session file` (SESSION_FILE) when both answers are shown.
   */
  readonly source?: string;
  /** What this window alone needs said (where a snapshot came from); the report's note otherwise. */
  readonly note?: string;
  /** Epoch ms an agent wrote the figures to disk, for windows read from its files: their age. */
  readonly observedAt?: number;
}

/** One row of the report: a label, an optional plan name, its windows and a disclaimer. */
export interface LimitReport {
  readonly row: LimitRowLabel;
  readonly plan?: string;
  readonly windows: readonly LimitWindow[];
  /** Why the figures may stop working (the endpoint is undocumented). */
  readonly note?: string;
}

/** Error codes of a failed provider (STYLE 3.6). */
export type LimitErrorCode =
  | 'E_NO_CREDENTIAL'
  | 'E_BAD_CREDENTIAL'
  | 'E_NOTHING_TO_PACE'
  | 'E_BAD_URL'
  | 'E_UNAUTHORIZED'
  | 'E_FORBIDDEN'
  | 'E_NOT_FOUND'
  | 'E_RATE_LIMITED'
  | 'E_SERVER'
  | 'E_HTTP_STATUS'
  | 'E_TIMEOUT'
  | 'E_DNS'
  | 'E_TLS'
  | 'E_NETWORK'
  | 'E_SCHEMA_DRIFT'
  | 'E_NO_WINDOWS'
  | 'E_TOO_LARGE'
  | 'E_INTERNAL';

/** Why a provider produced nothing without failing. */
export type SkipReason = 'no-credential' | 'nothing-to-pace';

/**
 * What one provider ends in. Providers never error: every failure is a `failed` value, so the
 * forkJoin over all of them always emits (STYLE 3.6).
 */
export type Outcome =
  | { readonly kind: 'ok'; readonly agent: LimitAgent; readonly reports: readonly LimitReport[] }
  | {
      readonly kind: 'skipped';
      readonly agent: LimitAgent;
      readonly reason: SkipReason;
      readonly message: string;
      /** Where the agent's sessions are, when it has some but no login: the user is told, even under `all`. */
      readonly sessions?: string;
    }
  | {
      readonly kind: 'failed';
      readonly agent: LimitAgent;
      readonly code: LimitErrorCode;
      readonly message: string;
      /** What the agent's own files still tell when the live answer failed (Codex's snapshot). */
      readonly reports?: readonly LimitReport[];
    };

export type Outcomes = Partial<Record<LimitAgent, Outcome>>;

/** A provider failure raised inside a provider's promise chain, turned into `failed` by catchError. */
export class LimitError extends Error {
  constructor(
    readonly code: LimitErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'LimitError';
  }
}
