import type { SessionSummary } from './session.js';

/**
 * Wire shapes of the HTTP API that are not session objects, shared by the server and the web
 * dashboard (web/ imports these types) so the two cannot drift.
 */

/** `GET /api/stats`: counts over the visible sessions. */
export interface ApiStats {
  readonly total_sessions: number;
  readonly active_sessions: number;
  readonly window_minutes: number;
  /** False while the first discovery runs (the server answers at once with what is known so far). */
  readonly ready: boolean;
  /** Diagnostics so far that need the user (unreadable files, locked or unknown databases); `agentwatch doctor` says what to do. */
  readonly diagnostics: number;
  /**
   * Only while `ready` is false: how much of the history on disk the first discovery has read
   * (files read of those found; the newest are read first, so the recent sessions are listed
   * already). Absent once ready, and before any source has counted its files.
   */
  readonly history?: { readonly read: number; readonly total: number };
  /** Only while a store runs without its disk (a full disk, a read-only folder): what, why, since when. */
  readonly degraded?: readonly DegradedStore[];
}

/** A store of the monitor running on less than its file (util/storage-health.ts). */
export interface DegradedStore {
  readonly store: string;
  readonly file: string;
  readonly fault: string;
  /** What the monitor does without it. */
  readonly meanwhile: string;
  /** RFC 3339 UTC. */
  readonly since: string;
  /** The condition in a few words, as the TUI's status line and the dashboard's footer say it ("webhook queue in memory: disk full"). */
  readonly summary: string;
}

/** `GET /api/events` (default format) `update` event; also `?format=patch`'s first `snapshot` event. */
export interface SessionsFrame {
  readonly sessions: readonly SessionSummary[];
  readonly stats: ApiStats;
}

/** `GET /api/events?format=patch` `patch` event: what changed since the client's last frame. */
export interface PatchFrame {
  readonly changed: readonly SessionSummary[];
  /** Session ids that left the listing. */
  readonly removed: readonly string[];
  readonly stats: ApiStats;
}

/** `GET /api/events?format=patch` `ready` event: the first discovery completed. */
export interface ReadyFrame {
  readonly stats: ApiStats;
}

/** `GET /api/auth`: how a client derives the bearer token from the passphrase. */
export interface AuthParameters {
  readonly salt: string;
  readonly iterations: number;
  readonly key_length: number;
  readonly hash: 'SHA-256';
  readonly encoding: 'base64url-no-padding';
}

/** `GET /api/scope` (dashboard): what lies outside the listing, for an empty dashboard to say. */
export interface ScopeDocument {
  readonly window_minutes: number;
  /** Sessions inside the window (as `total_sessions` of the stats). */
  readonly listed: number;
  /** Sessions agentwatch knows that are older than the window (exclusions and sub-agents left out). */
  readonly outside_window: number;
  /** False while the first discovery runs. */
  readonly ready: boolean;
  /** Where the sources looked, per agent watched. */
  readonly looked_in: readonly { readonly agent: string; readonly path: string }[];
}

export type DeliveryState = 'queued' | 'delivered' | 'refused' | 'failed' | 'dropped';

/** One delivery as stored and as listed by `webhooks log` and `GET /api/webhooks/deliveries`. */
export interface DeliveryRecord {
  readonly id: string;
  readonly webhook: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** HTTP status of the last answer, or null when none came (network error, timeout). */
  readonly status: number | null;
  /** Why the last attempt failed, or why the delivery was dropped. */
  readonly error: string | null;
  /** Duration of the last attempt, ms. */
  readonly latency_ms: number | null;
  /** RFC 3339 UTC. */
  readonly created_at: string;
  readonly last_attempt_at: string | null;
  readonly body: string;
}
