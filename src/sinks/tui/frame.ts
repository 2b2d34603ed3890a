import type { Activity } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionKey } from '../../core/session.js';
import type { SessionsState } from '../../core/contracts.js';
import type { SessionNames } from '../../config/session-names.js';
import { needingAttention } from '../../core/diagnostics.js';
import type { ActivityRules } from '../../streams/activity.js';
import { toDetail } from '../../streams/views.js';
import { NOT_A_WORKTREE, type WorktreeInfo } from '../../streams/worktree.js';
import { countAnyAge } from '../../streams/visibility.js';
import { selectRows } from './model.js';
import { NO_MEMORY, type OrderMemory } from './order.js';
import type { FrameInput } from './render.js';
import { selectedRow, type ViewState } from './state.js';

/** What a frame needs besides the pipeline state and the view: settings and lookups. */
export interface FrameContext {
  readonly names: SessionNames;
  readonly excludeCwdSubstrings: readonly string[];
  readonly agents: ReadonlySet<AgentKind>;
  readonly searched: readonly string[];
  /** Worktree facts of a cwd (reads `.git` once per cwd in production). */
  readonly worktreeOf?: (cwd: string) => WorktreeInfo;
  /** Warnings written while the TUI runs, oldest first. */
  readonly warnings?: readonly string[];
  /** The activities the fold derived for the latest frame; a session without one derives its own. */
  readonly activities?: ReadonlyMap<SessionKey, Activity> | undefined;
  /** `waiting_timeout_minutes` as activity rules (the detail derives its activity with them). */
  readonly rules?: ActivityRules;
}

export interface Frame extends FrameInput {
  /** Where each row is in this frame's order: the next frame keeps working rows in place. */
  readonly memory: OrderMemory;
}

/**
 * Pure (given a pure `worktreeOf`): pipeline state + view + the previous frame's order -> what
 * `render` draws.
 */
export const buildFrame = (state: SessionsState, view: ViewState, ctx: FrameContext, now: number, memory: OrderMemory = NO_MEMORY): Frame => {
  const selected = selectRows(
    state,
    { windowMinutes: view.windowMinutes, filter: view.filter, search: view.search, excludeCwdSubstrings: ctx.excludeCwdSubstrings, agents: ctx.agents },
    ctx.names,
    now,
    { mode: view.sort, memory },
    ctx.activities,
  );
  const { rows, counts } = selected;
  const row = selectedRow(view, rows);
  const detail = row
    ? toDetail(row.state, { now, customNames: ctx.names, worktree: ctx.worktreeOf?.(row.state.cwd) ?? NOT_A_WORKTREE, ...(ctx.rules ? { rules: ctx.rules } : {}) })
    : undefined;
  const diagnostics = needingAttention(state.diagnostics);
  // Only when nothing is listed: how many sessions the window hides (the empty screen says so).
  const older =
    counts.total === 0 ? countAnyAge(state.sessions.values(), now, { windowMinutes: undefined, excludeCwdSubstrings: ctx.excludeCwdSubstrings, agents: ctx.agents }) : 0;
  return {
    view,
    rows,
    counts,
    ...(detail ? { detail } : {}),
    ready: state.ready,
    diagnostics,
    now,
    searched: ctx.searched,
    olderSessions: older,
    warnings: ctx.warnings ?? [],
    memory: selected.memory,
  };
};
