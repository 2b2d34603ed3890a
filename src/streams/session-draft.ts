import { addTokens, withHourWrites, ZERO_TOKENS, type SessionEvent, type SessionState, type TokenCounts, type ToolUse } from '../core/session.js';
import { detach } from '../core/detach.js';
import { intern } from '../core/intern.js';
import { TIER_TOKENS } from './cost.js';
import { MESSAGE_TEXT_MAX, PENDING_TOOLS_MAX, RECENT_MESSAGES_MAX, RECENT_TOOLS_MAX, USAGE_IDS_MAX } from './constants.js';

/** Events that change one session's fields (not `removed`/`restore`, which replace it whole). */
export type DraftEvent = Extract<SessionEvent, { readonly sessionId: string; readonly type: Exclude<SessionEvent['type'], 'ready' | 'diagnostic' | 'removed' | 'restore'> }>;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type RecentMessage = SessionState['recentMessages'][number];

/**
 * A private copy of one session that a batch of events updates in place. The fold copies a
 * session once per batch (not once per event), and each array or map at most once per batch:
 * a cold start folds every record of every transcript, and copying a 30-field object plus its
 * lists per record was most of the fold's time and garbage. The session it was opened from is
 * never touched; `state` is only published once the batch is done.
 */
export interface SessionDraft {
  readonly state: Mutable<SessionState>;
  /** Which containers of `state` this draft already copied (and may therefore mutate). */
  ownPending: boolean;
  ownRecentTools: boolean;
  ownRecentMessages: boolean;
  /** The usage map while the draft updates it (a Map keeps recency order); `closeDraft` writes it back. */
  usage: Map<string, TokenCounts> | undefined;
}

export const openDraft = (from: SessionState): SessionDraft => ({
  state: { ...from },
  ownPending: false,
  ownRecentTools: false,
  ownRecentMessages: false,
  usage: undefined,
});

/** Finishes a draft: its state is complete and may be published (and must not be updated again). */
export const closeDraft = (d: SessionDraft): SessionState => {
  if (d.usage) d.state.usageByMessage = Object.fromEntries(d.usage);
  d.usage = undefined;
  return d.state;
};

const pending = (d: SessionDraft): ToolUse[] => {
  if (!d.ownPending) {
    d.state.pendingTools = [...d.state.pendingTools];
    d.ownPending = true;
  }
  return d.state.pendingTools as ToolUse[];
};

const recentTools = (d: SessionDraft): ToolUse[] => {
  if (!d.ownRecentTools) {
    d.state.recentTools = [...d.state.recentTools];
    d.ownRecentTools = true;
  }
  return d.state.recentTools as ToolUse[];
};

const recentMessages = (d: SessionDraft): RecentMessage[] => {
  if (!d.ownRecentMessages) {
    d.state.recentMessages = [...d.state.recentMessages];
    d.ownRecentMessages = true;
  }
  return d.state.recentMessages as RecentMessage[];
};

const usageMap = (d: SessionDraft): Map<string, TokenCounts> => {
  d.usage ??= new Map(Object.entries(d.state.usageByMessage));
  return d.usage;
};

/** Appends and drops from the front so at most `max` items remain (the newest). */
const pushKeepLast = <T>(items: T[], item: T, max: number): void => {
  items.push(item);
  if (items.length > max) items.splice(0, items.length - max);
};

/** Of one message's counts, the part past the price tier of each kind. */
const aboveTier = (t: TokenCounts): TokenCounts =>
  withHourWrites(
    {
      input: Math.max(0, t.input - TIER_TOKENS),
      output: Math.max(0, t.output - TIER_TOKENS),
      cacheCreation: Math.max(0, t.cacheCreation - TIER_TOKENS),
      cacheRead: Math.max(0, t.cacheRead - TIER_TOKENS),
    },
    Math.max(0, (t.cacheCreation1h ?? 0) - TIER_TOKENS),
  );

const reachesTier = (t: TokenCounts): boolean => t.input > TIER_TOKENS || t.output > TIER_TOKENS || t.cacheCreation > TIER_TOKENS || t.cacheRead > TIER_TOKENS;

/** Timestamps only move forward: a record with an unknown (0) or older time never rewinds the clock. */
const later = (current: number, at: number | undefined): number => (at !== undefined && at > current ? at : current);

/**
 * `id` becomes the newest entry of the usage map, which keeps the newest USAGE_IDS_MAX ids.
 * NOTE: a draft starts from the map's key order, which puts integer-like keys first (amp's message
 * numbers); amp numbers rise and never repeat, so that order is also their recency order.
 */
const rememberUsage = (d: SessionDraft, id: string, tokens: TokenCounts): void => {
  const byMessage = usageMap(d);
  byMessage.delete(id);
  byMessage.set(id, tokens);
  if (byMessage.size > USAGE_IDS_MAX) {
    for (const old of byMessage.keys()) {
      byMessage.delete(old);
      if (byMessage.size <= USAGE_IDS_MAX) break;
    }
  }
};

const applyUsage = (d: SessionDraft, e: Extract<DraftEvent, { type: 'usage' }>): void => {
  const s = d.state;
  if (e.mode === 'total') {
    s.tokens = e.tokens;
    s.recordedCostUsd = e.costUsd ?? s.recordedCostUsd;
    return;
  }
  // NOTE: one response written over several lines repeats its usage; the later line replaces the
  // earlier counts. Its recorded cost is counted once, from the first line that carries it.
  const previous = e.messageId === undefined ? undefined : d.usage ? d.usage.get(e.messageId) : s.usageByMessage[e.messageId];
  const added = previous === undefined ? e.tokens : addTokens(e.tokens, previous, -1);
  const cost = previous === undefined ? (e.costUsd ?? 0) : 0;
  s.tokens = addTokens(s.tokens, added);
  // Tiers are per message: a replaced message's part above the tier is replaced too.
  let above: TokenCounts | undefined;
  if (reachesTier(e.tokens) || (previous !== undefined && reachesTier(previous))) {
    above = previous === undefined ? aboveTier(e.tokens) : addTokens(aboveTier(e.tokens), aboveTier(previous), -1);
    s.tokensAboveTier = addTokens(s.tokensAboveTier, above);
  }
  // A message written again names the same model: its difference stays with that model.
  if (e.model) {
    const had = s.tokensByModel[e.model];
    const tokens = addTokens(had?.tokens ?? ZERO_TOKENS, added);
    s.tokensByModel = { ...s.tokensByModel, [e.model]: { tokens, aboveTier: above === undefined ? (had?.aboveTier ?? ZERO_TOKENS) : addTokens(had?.aboveTier ?? ZERO_TOKENS, above) } };
  }
  s.recordedCostUsd += cost;
  if (e.subagent === true) {
    const inline = s.inlineSubagents;
    s.inlineSubagents = { sessions: inline.sessions, tokens: addTokens(inline.tokens, added), costUsd: inline.costUsd + cost };
  }
  if (e.messageId !== undefined) rememberUsage(d, e.messageId, e.tokens);
};

const applyToolResult = (d: SessionDraft, e: Extract<DraftEvent, { type: 'tool_result' }>): void => {
  const s = d.state;
  // The pending call a result answers: by call id, else the oldest pending call.
  const index = e.callId === undefined ? (s.pendingTools.length > 0 ? 0 : -1) : s.pendingTools.findIndex((tool) => tool.callId === e.callId);
  if (index !== -1) {
    const answered = s.pendingTools[index] as ToolUse;
    pending(d).splice(index, 1);
    // Mark the newest matching entry of the recent list as done (same call id, or the same object).
    const at = s.recentTools.findLastIndex((tool) => (answered.callId !== undefined ? tool.callId === answered.callId : tool === answered));
    if (at !== -1) {
      const tools = recentTools(d);
      tools[at] = { ...(tools[at] as ToolUse), done: true };
    }
  }
  s.lastTurn = 'tool_result';
  s.lastTurnAt = e.at;
  s.lastActivityAt = later(s.lastActivityAt, e.at);
};

const applyMeta = (s: Mutable<SessionState>, e: Extract<DraftEvent, { type: 'meta' }>): void => {
  const p = e.patch;
  // Repeated across sessions: one copy each (see core/intern.ts); looked up only when it changes.
  if (p.cwd !== undefined && p.cwd !== s.cwd) s.cwd = intern(p.cwd);
  if (p.model !== undefined && p.model !== s.model) s.model = intern(p.model);
  if (p.gitBranch !== undefined && p.gitBranch !== s.gitBranch) s.gitBranch = intern(p.gitBranch);
  if (p.version !== undefined && p.version !== s.version) s.version = intern(p.version);
  s.agentName = p.agentName ?? s.agentName;
  s.source = p.source ?? s.source;
  s.isSidechain = p.isSidechain ?? s.isSidechain;
  s.parentId = p.parentId ?? s.parentId;
  s.resumeCommand = p.resumeCommand ?? s.resumeCommand;
  s.path = p.path ?? s.path;
  // The earliest sighting: a session read from several files (a resumed Codex thread) began with the first.
  if (p.createdAt !== undefined && (s.createdAt === 0 || p.createdAt < s.createdAt)) s.createdAt = p.createdAt;
  if (p.lastActivityAt !== undefined) s.lastActivityAt = later(s.lastActivityAt, p.lastActivityAt);
};

const applyTurn = (d: SessionDraft, e: Extract<DraftEvent, { type: 'turn' }>): void => {
  const s = d.state;
  const counts = e.counts !== false;
  const text = e.text?.trim() ?? '';
  s.lastTurn = e.role;
  s.lastTurnAt = e.at;
  s.lastActivityAt = later(s.lastActivityAt, e.at);
  if (counts && e.role === 'user') s.userMessages += 1;
  if (counts && e.role === 'assistant') s.assistantMessages += 1;
  // A new prompt ends the previous turn: calls that never got a result were interrupted.
  if (e.role === 'user' && s.pendingTools.length > 0) {
    s.pendingTools = [];
    d.ownPending = true;
  }
  if (counts && text !== '') {
    const kept = text.slice(0, MESSAGE_TEXT_MAX);
    // A cut text is a view into the whole message: keep a copy of the cut part only.
    pushKeepLast(recentMessages(d), { role: e.role, text: kept.length < (e.text?.length ?? 0) ? detach(kept) : kept, at: e.at }, RECENT_MESSAGES_MAX);
  }
};

const applyToolCall = (d: SessionDraft, e: Extract<DraftEvent, { type: 'tool_call' }>): void => {
  const s = d.state;
  const tool: ToolUse = { name: e.name, at: e.at, done: false, ...(e.callId === undefined ? {} : { callId: e.callId }) };
  s.lastTurn = 'tool_call';
  s.lastTurnAt = e.at;
  s.lastActivityAt = later(s.lastActivityAt, e.at);
  pushKeepLast(pending(d), tool, PENDING_TOOLS_MAX);
  pushKeepLast(recentTools(d), tool, RECENT_TOOLS_MAX);
  if (e.filePath !== undefined) {
    s.lastFileWrite = e.filePath;
    s.lastFileWriteAt = e.at;
  }
};

/**
 * Applies one event to the draft. `reset` is the caller's job (it needs a fresh session).
 * Every event but `checkpoint` clears the checkpoint: the state then no longer equals
 * "everything up to that offset", so the discovery cache must not persist it with that offset.
 */
export const applyToDraft = (d: SessionDraft, e: Exclude<DraftEvent, { type: 'reset' }>): void => {
  if (e.type === 'checkpoint') {
    d.state.checkpoint = e.checkpoint;
    return;
  }
  d.state.checkpoint = null;
  switch (e.type) {
    case 'meta':
      return applyMeta(d.state, e);
    case 'turn':
      return applyTurn(d, e);
    case 'tool_call':
      return applyToolCall(d, e);
    case 'tool_result':
      return applyToolResult(d, e);
    case 'usage':
      return applyUsage(d, e);
    case 'subagent_run': {
      const inline = d.state.inlineSubagents;
      d.state.inlineSubagents = { ...inline, sessions: inline.sessions + 1 };
      return;
    }
    case 'thinking':
      d.state.lastTurn = 'thinking';
      d.state.lastTurnAt = e.at;
      d.state.lastActivityAt = later(d.state.lastActivityAt, e.at);
      return;
    case 'compaction':
      if (e.phase === 'start') {
        d.state.compactionStartedAt = e.at;
        d.state.compactionEndedAt = 0;
      } else d.state.compactionEndedAt = e.at;
      d.state.lastActivityAt = later(d.state.lastActivityAt, e.at);
      return;
    default:
      return e satisfies never;
  }
};
