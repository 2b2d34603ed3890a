import { rfc3339 } from '../core/time.js';
import { isActiveActivity, type Activity } from '../core/activity.js';
import { orderGroup } from '../core/session-order.js';
import { NO_SUBAGENTS, type CostSource, type SessionDetail, type SessionState, type SessionSummary } from '../core/session.js';
import type { SessionNames } from '../config/session-names.js';
import { agentResume } from '../sources/agents.js';
import { lastPrompt, sessionName } from '../core/session-name.js';
import { resolveActivity, waitingSince, type ActivityRules } from './activity.js';
import { sessionCost, usageCost, usageCostSource } from './cost.js';
import { NOT_A_WORKTREE, type WorktreeInfo } from './worktree.js';

/** What a view needs besides the session: the time, the user's names and (for details) git facts. */
export interface ViewOptions {
  readonly now: number;
  /** session-names.json: `{ "<session id>": "<name>" }`. */
  readonly customNames?: SessionNames;
  /** Worktree facts of the session's cwd (see `createWorktreeLookup`); details only. */
  readonly worktree?: WorktreeInfo;
  /** The activity the fold derived for the frame (details only): not derived a second time. */
  readonly activity?: Activity;
  /** `waiting_timeout_minutes` as activity rules; the default when absent. */
  readonly rules?: ActivityRules;
}

/**
 * The project directory's last folder, whichever system wrote the path (`C:\Users\me\repo` is
 * `repo` here too); "/" stays "/", no cwd gives "".
 */
export const shortName = (cwd: string): string => {
  if (cwd === '') return '';
  const trimmed = cwd.replace(/[\\/]+$/, '');
  const base = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
  return base === '' ? cwd.slice(0, 1) : base;
};

/** Micro-dollar precision: float noise (0.30000000000000004) never reaches the wire. */
const roundUsd = (usd: number): number => Math.round(usd * 1_000_000) / 1_000_000;

/** The command the source recorded, else the one the agent's descriptor builds from the session. */
export const resumeCommand = (s: SessionState): string => s.resumeCommand || agentResume(s.agent, s);

/** The session's own source, else its sub-agents' (whose recorded costs none of them write): an estimate. */
const sourceOfCost = (s: SessionState): CostSource => usageCostSource(s) ?? (s.subagents.costUsd > 0 ? 'price-table' : null);

/** Summary object of `GET /api/sessions` (docs/api.md). Pure. */
export const toSummary = (s: SessionState, options: ViewOptions): SessionSummary => summaryWith(s, options, resolveActivity(s, options.now, options.rules).activity);

/** The summary with an activity already resolved (the cached listing resolves it once). Pure. */
export const summaryWith = (s: SessionState, options: Pick<ViewOptions, 'customNames'>, activity: Activity): SessionSummary => {
  const named = { custom_name: options.customNames?.[s.sessionId] ?? '', agent_name: s.agentName, short_name: shortName(s.cwd), session_id: s.sessionId };
  return {
    session_id: s.sessionId,
    agent: s.agent,
    cwd: s.cwd,
    short_name: named.short_name,
    agent_name: s.agentName,
    custom_name: named.custom_name,
    source: s.source,
    activity,
    is_active: isActiveActivity(activity),
    model: s.model,
    git_branch: s.gitBranch,
    cost_usd: roundUsd(usageCost(s) + s.subagents.costUsd),
    cost_source: sourceOfCost(s),
    last_activity: rfc3339(s.lastActivityAt),
    total_messages: s.userMessages + s.assistantMessages,
    // NOTE: the latest prompt is read only when neither name is set: a restored session's
    // recent messages are loaded from the discovery cache on first read.
    display_name: sessionName(named, named.custom_name || named.agent_name ? '' : lastPrompt(s.recentMessages)).text,
    started_at: rfc3339(s.createdAt),
    order_group: orderGroup(activity),
    waiting_since: activity === 'waiting' ? rfc3339(waitingSince(s)) : '',
  };
};

/** Detail object of `GET /api/sessions/:id` and `agentwatch sessions --json`. Pure. */
export const toDetail = (s: SessionState, options: ViewOptions): SessionDetail => {
  const worktree = options.worktree ?? NOT_A_WORKTREE;
  const resolved = resolveActivity(s, options.now, options.rules);
  // From sub-agents: their own transcripts' usage (not in `tokens`) and turns written inline (in it).
  const sub = s.subagents;
  const inline = s.inlineSubagents;
  // NOTE: the detail fields are added to the summary object, not spread with it into a new
  // literal: V8 built the 30-field spread copy in dictionary mode, several times slower to build
  // and to stringify (docs/performance.md).
  return Object.assign(summaryWith(s, options, options.activity ?? resolved.activity), {
    version: s.version,
    is_worktree: worktree.isWorktree,
    main_repo: worktree.mainRepo,
    // Totals include the sub-agents' usage (the user paid for it); `subagents` says how much.
    input_tokens: s.tokens.input + sub.tokens.input,
    output_tokens: s.tokens.output + sub.tokens.output,
    cache_creation_tokens: s.tokens.cacheCreation + sub.tokens.cacheCreation,
    cache_read_tokens: s.tokens.cacheRead + sub.tokens.cacheRead,
    user_messages: s.userMessages,
    assistant_messages: s.assistantMessages,
    current_tool: resolved.tool,
    last_file_write: s.lastFileWrite,
    last_file_write_at: rfc3339(s.lastFileWriteAt),
    recent_tools: s.recentTools.map((tool) => ({ name: tool.name, timestamp: rfc3339(tool.at) })),
    recent_messages: s.recentMessages.map((m) => ({ role: m.role, text: m.text, timestamp: rfc3339(m.at) })),
    resume_command: resumeCommand(s),
    subagents: {
      sessions: sub.sessions + inline.sessions,
      input_tokens: sub.tokens.input + inline.tokens.input,
      output_tokens: sub.tokens.output + inline.tokens.output,
      cache_creation_tokens: sub.tokens.cacheCreation + inline.tokens.cacheCreation,
      cache_read_tokens: sub.tokens.cacheRead + inline.tokens.cacheRead,
      cost_usd: roundUsd(sub.costUsd + (inline === NO_SUBAGENTS ? 0 : sessionCost(s.model, inline.tokens, inline.costUsd))),
    },
  });
};
