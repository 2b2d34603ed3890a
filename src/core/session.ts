import type { Activity } from './activity.js';
import type { OrderGroup } from './session-order.js';
import type { AgentKind } from './agents.js';

/**
 * The event-sourced core contract. Sources turn what an agent wrote into `SessionEvent`s; the pure
 * fold in `streams/` turns events into `SessionState`; views (`SessionSummary`/`SessionDetail`)
 * are derived from state plus `now`. Every timestamp is epoch milliseconds taken from the agent's
 * own record (never from when agentwatch read it), 0 meaning "unknown".
 */

export interface SessionRef {
  readonly agent: AgentKind;
  readonly sessionId: string;
}

/** Stable map key of a session: ids are unique per agent, not across agents. */
export type SessionKey = `${AgentKind}:${string}`;
export const sessionKey = (ref: SessionRef): SessionKey => `${ref.agent}:${ref.sessionId}`;

export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  /**
   * Of `cacheCreation`, the writes kept for an hour, billed at a higher rate than the five-minute
   * ones. Present only when above 0 (Claude Code writes the split; other agents do not).
   */
  readonly cacheCreation1h?: number;
}

export const ZERO_TOKENS: TokenCounts = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };

export const sameTokens = (a: TokenCounts, b: TokenCounts): boolean =>
  a.input === b.input && a.output === b.output && a.cacheCreation === b.cacheCreation && a.cacheRead === b.cacheRead && (a.cacheCreation1h ?? 0) === (b.cacheCreation1h ?? 0);

/** `tokens` with `long` one-hour cache writes: the field is left out at 0, so equal counts have one shape. */
export const withHourWrites = (tokens: TokenCounts, long: number): TokenCounts => {
  if (long > 0) return { ...tokens, cacheCreation1h: long };
  if (tokens.cacheCreation1h === undefined) return tokens;
  const { cacheCreation1h: _dropped, ...rest } = tokens;
  return rest;
};

/**
 * `a + sign * b`, kind by kind. A difference (a message written again) may be negative; only a
 * one-hour count of 0 leaves the field out.
 */
export const addTokens = (a: TokenCounts, b: TokenCounts, sign = 1): TokenCounts => {
  const sum: TokenCounts = {
    input: a.input + sign * b.input,
    output: a.output + sign * b.output,
    cacheCreation: a.cacheCreation + sign * b.cacheCreation,
    cacheRead: a.cacheRead + sign * b.cacheRead,
  };
  if (a.cacheCreation1h === undefined && b.cacheCreation1h === undefined) return sum;
  const long = (a.cacheCreation1h ?? 0) + sign * (b.cacheCreation1h ?? 0);
  return long === 0 ? sum : { ...sum, cacheCreation1h: long };
};

/** Descriptive fields a source sets; `undefined` leaves the current value alone. */
export interface SessionMetaPatch {
  readonly cwd?: string;
  readonly model?: string;
  readonly gitBranch?: string;
  readonly version?: string;
  /** The agent's own title: claude custom-title / Desktop title, codex thread name, amp title... */
  readonly agentName?: string;
  readonly source?: 'cli' | 'desktop';
  /** Sub-agent / sidechain transcripts are folded but never shown. */
  readonly isSidechain?: boolean;
  readonly parentId?: string;
  readonly resumeCommand?: string;
  /** Where the session lives on disk (file, directory or database), for diagnostics and the cache. */
  readonly path?: string;
  /** Session creation time when the agent records it. */
  readonly createdAt?: number;
  /**
   * A last activity the agent records apart from its records' own times (a Cursor composer's
   * `lastUpdatedAt`): the session's last activity is the newest of this and its records'.
   */
  readonly lastActivityAt?: number;
}

/** True when a `meta` event with `patch` would leave `state` as it is (every field it sets already holds its value). */
export const changesNothing = (patch: SessionMetaPatch, state: SessionState): boolean =>
  (Object.keys(patch) as (keyof SessionMetaPatch)[]).every((key) => patch[key] === undefined || patch[key] === state[key]);

export type SessionEvent =
  /** Descriptive facts about the session (cwd, model, branch, title...). */
  | (SessionRef & { readonly type: 'meta'; readonly at?: number; readonly patch: SessionMetaPatch })
  /**
   * A conversational turn. `counts` is false for records that are turns for state purposes but
   * not messages a person would count (injected context, compact summaries).
   */
  | (SessionRef & {
      readonly type: 'turn';
      readonly at: number;
      readonly role: 'user' | 'assistant';
      readonly text?: string;
      readonly counts?: boolean;
    })
  /** The agent issued a tool call. `name` is the agent's raw tool name; `filePath` is set for writes. */
  | (SessionRef & {
      readonly type: 'tool_call';
      readonly at: number;
      readonly name: string;
      readonly callId?: string;
      readonly filePath?: string;
    })
  /** A tool call's result arrived (matched by `callId` when the agent records one). */
  | (SessionRef & { readonly type: 'tool_result'; readonly at: number; readonly callId?: string; readonly isError?: boolean })
  /**
   * Token usage. With `messageId`, a later event for the same id replaces the earlier counts
   * (one response written over several lines counts once); `mode: 'total'` replaces the session
   * totals (codex reports cumulative totals); otherwise counts add up.
   */
  | (SessionRef & {
      readonly type: 'usage';
      readonly at?: number;
      readonly tokens: TokenCounts;
      readonly messageId?: string;
      readonly mode?: 'add' | 'total';
      /** The model that spent these tokens, where the record names it (claude): priced at its own rates. */
      readonly model?: string;
      /** Cost the agent itself recorded, in USD (claude costUSD, pi, opencode/kilo). */
      readonly costUsd?: number;
      /** Spent by a sub-agent whose turns this transcript holds inline (claude 1.0.x): also counted in `inlineSubagents`. */
      readonly subagent?: boolean;
    })
  /** A sub-agent run began inline in this transcript (claude 1.0.x: a sidechain's first prompt). */
  | (SessionRef & { readonly type: 'subagent_run'; readonly at: number })
  /**
   * The model is working but has not answered yet (a claude line holding only a thinking block):
   * activity that shows "thinking" and moves the last activity, not a message.
   */
  | (SessionRef & { readonly type: 'thinking'; readonly at: number })
  /** Context compaction started (or, for agents that log one record, happened) / ended. */
  | (SessionRef & { readonly type: 'compaction'; readonly at: number; readonly phase: 'start' | 'end' })
  /** The source re-reads the session from scratch (document rewritten, file truncated): drop derived state. */
  | (SessionRef & { readonly type: 'reset' })
  /** The session's file, directory or row is gone. */
  | (SessionRef & { readonly type: 'removed' })
  /** Warm start: the folded state as it was persisted in the discovery cache. */
  | (SessionRef & { readonly type: 'restore'; readonly state: SessionState })
  /**
   * The source has emitted every event of `path` up to byte `offset` (file size `size`, mtime
   * `mtimeMs`). The fold stores it; the discovery cache persists a session's state only together
   * with the checkpoint it corresponds to, so a warm start can resume from that offset.
   */
  | (SessionRef & { readonly type: 'checkpoint'; readonly checkpoint: FileCheckpoint })
  /** The source finished its first discovery pass (sent once per subscription, even when it found nothing). */
  | { readonly type: 'ready'; readonly agent: AgentKind }
  /**
   * How far the source's first discovery pass is: `read` of the `total` files it found are read
   * (or restored). Sent while the pass runs, the last time with `read === total`.
   */
  | { readonly type: 'progress'; readonly agent: AgentKind; readonly read: number; readonly total: number }
  /** A record that could not be used: counted, shown in diagnostics, never fatal. */
  | {
      readonly type: 'diagnostic';
      readonly agent: AgentKind;
      readonly sessionId?: string;
      readonly code: DiagnosticCode;
      readonly message: string;
      readonly path?: string;
      /** 1-based line of `path` the diagnostic is about, when it is about one record. */
      readonly line?: number;
      /** The agent version that wrote the record, when known (unknown records are counted per version). */
      readonly version?: string;
      /**
       * How many diagnostics of `code` this event stands for (1 when absent): a warm start that
       * restores a file without reading it again restores the counts its earlier read found.
       */
      readonly count?: number;
    };

export type DiagnosticEvent = Extract<SessionEvent, { readonly type: 'diagnostic' }>;

export type DiagnosticCode =
  | 'E_JUNK_LINE'
  | 'E_SCHEMA'
  | 'E_OVERSIZED_LINE'
  | 'E_READ'
  | 'E_DB_LOCKED'
  | 'E_DB_SCHEMA'
  | 'E_DB_CORRUPT'
  | 'E_WATCH'
  | 'E_CACHE'
  /** A record type or field shape this parser does not know (a newer or older agent version): counted, never an error. */
  | 'E_UNKNOWN_RECORD';

/** A file as it was when read: a warm start that stats it the same trusts what was read from it. */
export interface FileStamp {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino?: number;
}

export interface FileCheckpoint {
  readonly path: string;
  readonly offset: number;
  readonly size: number;
  /** The file's inode when known: a warm start that finds another inode at `path` re-reads from 0. */
  readonly ino?: number;
  readonly mtimeMs: number;
  /**
   * Earlier files of the same session, read to their end before this one, as they were then (a
   * Codex thread resumed into a new segment file): the state holds them too, so a warm start may
   * restore it only when it finds them as they were.
   */
  readonly before?: readonly FileStamp[];
  /**
   * Diagnostics found in the records read up to `offset` (this file and `before`'s), by code:
   * restored with the state, so a warm start counts what a cold start of the same files counts.
   */
  readonly diagnostics?: DiagnosticCounts;
}

/** Diagnostics by code (codes with none are left out). */
export type DiagnosticCounts = Readonly<Partial<Record<DiagnosticCode, number>>>;

export interface SubagentUsage {
  readonly sessions: number;
  readonly tokens: TokenCounts;
  readonly costUsd: number;
}

export const NO_SUBAGENTS: SubagentUsage = { sessions: 0, tokens: ZERO_TOKENS, costUsd: 0 };

export interface ToolUse {
  readonly name: string;
  readonly at: number;
  readonly callId?: string;
  /** The result arrived. */
  readonly done: boolean;
}

export interface RecentMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly at: number;
}

/** What the last meaningful record was; drives the activity state machine. */
export type LastTurn = 'none' | 'user' | 'assistant' | 'tool_call' | 'tool_result' | 'thinking';

/** The tokens one model spent in a session, and their part past the price tier. */
export interface ModelTokens {
  readonly tokens: TokenCounts;
  readonly aboveTier: TokenCounts;
}

/** The folded state of one session. Plain JSON so the discovery cache can persist it. */
export interface SessionState {
  readonly agent: AgentKind;
  readonly sessionId: string;
  readonly cwd: string;
  readonly model: string;
  readonly gitBranch: string;
  readonly version: string;
  readonly agentName: string;
  readonly source: 'cli' | 'desktop';
  readonly isSidechain: boolean;
  readonly parentId: string;
  readonly resumeCommand: string;
  readonly path: string;
  readonly createdAt: number;
  /** Timestamp of the last turn, tool call, tool result or compaction record. */
  readonly lastActivityAt: number;
  readonly lastTurn: LastTurn;
  readonly lastTurnAt: number;
  readonly userMessages: number;
  readonly assistantMessages: number;
  readonly tokens: TokenCounts;
  /**
   * The part of `tokens` that lay past 200k tokens of its kind in its own message: priced at the
   * tiered rates where a model has them (streams/cost.ts). Zero for totals an agent reports whole.
   */
  readonly tokensAboveTier: TokenCounts;
  /**
   * The part of `tokens` (and of `tokensAboveTier`) each model spent, by the model its usage named
   * (claude): a session that changed models is priced per model; tokens no usage named a model for
   * are priced at `model`'s rates (streams/cost.ts).
   */
  readonly tokensByModel: Readonly<Record<string, ModelTokens>>;
  /** Per-message usage already counted, so split responses count once (bounded, newest kept). */
  readonly usageByMessage: Readonly<Record<string, TokenCounts>>;
  readonly recordedCostUsd: number;
  /**
   * Usage of the session's sub-agent transcripts (claude), kept by the fold from the children's
   * own states: the user paid for it in this session, so views add it to the totals and show it.
   */
  readonly subagents: SubagentUsage;
  /**
   * The part of `tokens` (and `recordedCostUsd`) that sub-agents spent in turns written inline in
   * this transcript (claude 1.0.x sidechain lines), and how many such runs began: already in the
   * totals, shown with `subagents` as what came from sub-agents.
   */
  readonly inlineSubagents: SubagentUsage;
  /** Tool calls still waiting for their result, oldest first. */
  readonly pendingTools: readonly ToolUse[];
  /** Last 20 tool calls, newest last. */
  readonly recentTools: readonly ToolUse[];
  /** Last 10 messages, newest last, text cut to 300 characters. */
  readonly recentMessages: readonly RecentMessage[];
  readonly lastFileWrite: string;
  readonly lastFileWriteAt: number;
  /** Start of the latest compaction and its end (0 while it runs or when none ended). */
  readonly compactionStartedAt: number;
  readonly compactionEndedAt: number;
  /**
   * Set by a `checkpoint` event (or `restore`) and cleared by every other event of the session:
   * non-null means the state is exactly "all events of checkpoint.path up to checkpoint.offset".
   */
  readonly checkpoint: FileCheckpoint | null;
}

/**
 * Where a session's cost comes from: what the agent recorded (`agent`), an estimate from list
 * prices (`price-table`, when any part of it is one), or nowhere: no one knows its model's price.
 */
export type CostSource = 'agent' | 'price-table' | null;

/** Summary object of `GET /api/sessions` (docs/api.md); field names are the wire format. */
export interface SessionSummary {
  readonly session_id: string;
  readonly agent: AgentKind;
  readonly cwd: string;
  readonly short_name: string;
  readonly agent_name: string;
  readonly custom_name: string;
  readonly source: 'cli' | 'desktop';
  readonly activity: Activity;
  readonly is_active: boolean;
  readonly model: string;
  readonly git_branch: string;
  readonly cost_usd: number;
  readonly cost_source: CostSource;
  /** RFC 3339 UTC, or "" when unknown. */
  readonly last_activity: string;
  readonly total_messages: number;
  /** What every interface calls the session (core/session-name.ts): rename, title, latest prompt, folder. */
  readonly display_name: string;
  /** When the session started, RFC 3339 UTC (UNKNOWN_TIME when unknown): a key of the list order. */
  readonly started_at: string;
  /** What the session needs from its user (core/session-order.ts): the first key of the `needs-you` order. */
  readonly order_group: OrderGroup;
  /** RFC 3339 UTC of the answer the session waits on while `activity` is "waiting", else "" (interfaces show "waiting 14m"). */
  readonly waiting_since: string;
}

/** Detail object of `GET /api/sessions/:id` and `agentwatch sessions --json`. */
export interface SessionDetail extends SessionSummary {
  readonly version: string;
  readonly is_worktree: boolean;
  readonly main_repo: string;
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_tokens: number;
  readonly cache_read_tokens: number;
  readonly user_messages: number;
  readonly assistant_messages: number;
  readonly current_tool: string;
  readonly last_file_write: string;
  readonly last_file_write_at: string;
  readonly recent_tools: readonly { readonly name: string; readonly timestamp: string }[];
  readonly recent_messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string; readonly timestamp: string }[];
  readonly resume_command: string;
  /** How much of the totals above came from sub-agent transcripts (already included in them). */
  readonly subagents: {
    readonly sessions: number;
    readonly input_tokens: number;
    readonly output_tokens: number;
    readonly cache_creation_tokens: number;
    readonly cache_read_tokens: number;
    readonly cost_usd: number;
  };
}

/** An activity change of one session (first sight emits none). Webhooks, notifier and SSE subscribe. */
export interface Transition {
  readonly agent: AgentKind;
  readonly sessionId: string;
  readonly from: Activity;
  readonly to: Activity;
  /** When the change was derived (scheduler time). */
  readonly at: number;
  readonly cwd: string;
  readonly isSidechain: boolean;
}
