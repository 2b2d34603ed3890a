import type { AgentKind } from '../../core/agents.js';
import type { SessionNames } from '../../config/session-names.js';
import { needingAttention } from '../../core/diagnostics.js';
import type { ActivityRules } from '../../streams/activity.js';
import { toDetail } from '../../streams/views.js';
import { NOT_A_WORKTREE, type WorktreeInfo } from '../../streams/worktree.js';
import { countAnyAge } from '../../streams/visibility.js';
import { selectRows, type ListedRead } from './model.js';
import type { FrameInput } from './render.js';
import { selectedRow, type ViewState } from './state.js';

/** What a frame needs besides the listing and the view: settings and lookups. */
export interface FrameContext {
  readonly names: SessionNames;
  readonly excludeCwdSubstrings: readonly string[];
  readonly agents: ReadonlySet<AgentKind>;
  readonly searched: readonly string[];
  /** Worktree facts of a cwd (reads `.git` once per cwd in production). */
  readonly worktreeOf?: (cwd: string) => WorktreeInfo;
  /** Warnings written while the TUI runs, oldest first. */
  readonly warnings?: readonly string[];
  /** Stores running without their disk now, in a few words each (util/storage-health.ts). */
  readonly degraded?: readonly string[];
  /** `waiting_timeout_minutes` as activity rules (the detail derives its current tool with them). */
  readonly rules?: ActivityRules;
}

export type Frame = FrameInput;

/** Pure (given a pure `worktreeOf`): the listing as read for the view's window + view -> what `render` draws. */
export const buildFrame = (read: ListedRead, view: ViewState, ctx: FrameContext, now: number): Frame => {
  const { state } = read;
  const selected = selectRows(read, { filter: view.filter, search: view.search }, view.sort);
  const { rows, counts } = selected;
  const row = selectedRow(view, rows);
  const detail = row
    ? toDetail(row.state, { now, customNames: ctx.names, worktree: ctx.worktreeOf?.(row.state.cwd) ?? NOT_A_WORKTREE, activity: row.activity, ...(ctx.rules ? { rules: ctx.rules } : {}) })
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
    ...(!state.ready && state.history ? { history: state.history } : {}),
    diagnostics,
    now,
    searched: ctx.searched,
    olderSessions: older,
    warnings: ctx.warnings ?? [],
    degraded: ctx.degraded ?? [],
  };
};
