import { WINDOW_BOUNDS } from '../../config/bounds.js';
import { ACTIVITY_FILTERS, type ActivityFilter } from '../../core/activity.js';
import { resumeCommand } from '../../streams/views.js';
import type { ListRow } from './model.js';
import { nextSortMode, type SortMode } from './order.js';
import { keepInView } from './render-list.js';
import { reduceLimits, startLimitsRead } from './state-limits.js';
import type { Prompt, LimitsText, LimitsView, Notice, ViewState, Action, Effect, ContentHit, ReduceContext, Reduced } from './state-types.js';

/**
 * The TUI's own state (what the user did, not what the agents did) and its pure reducer.
 * The reducer returns effects as data; `index.ts` performs them (write a file, spawn an editor,
 * fetch limits) and feeds the results back as actions. The types are in state-types.ts.
 */

export type {   LimitsText,  LimitsView,  ViewState, Action, Effect, ContentHit, ReduceContext, Reduced };

/** The +/- keys step the window within the stepper range of `window_minutes` (config schema). */
const WINDOW_STEPPER = WINDOW_BOUNDS.stepper ?? { min: WINDOW_BOUNDS.min, max: WINDOW_BOUNDS.max, step: 10 };
export const WINDOW_MIN = WINDOW_STEPPER.min;
export const WINDOW_MAX = WINDOW_STEPPER.max;
export const WINDOW_STEP = WINDOW_STEPPER.step;

/** The first view; the TUI passes the config's `sort_order`, a caller without a config gets recent activity. */
export const initialView = (windowMinutes: number, filter: ActivityFilter, sort: SortMode = 'recent'): ViewState => ({
  focus: 'list',
  selectedIndex: 0,
  detailScroll: 0,
  windowMinutes: Math.min(WINDOW_MAX, Math.max(WINDOW_BOUNDS.min, windowMinutes)),
  filter,
  search: '',
  limitsRequests: 0,
  sort,
  listOffset: 0,
});

const clamp = (value: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, value));

/** Index of the selected row in `rows`; -1 when the list is empty. */
export const selectedRowIndex = (view: ViewState, rows: readonly ListRow[]): number => {
  if (rows.length === 0) return -1;
  const byKey = view.selectedKey === undefined ? -1 : rows.findIndex((row) => row.key === view.selectedKey);
  return byKey >= 0 ? byKey : clamp(view.selectedIndex, 0, rows.length - 1);
};

export const selectedRow = (view: ViewState, rows: readonly ListRow[]): ListRow | undefined => rows[selectedRowIndex(view, rows)];

const select = (view: ViewState, rows: readonly ListRow[], index: number): ViewState => {
  if (rows.length === 0) return { ...view, selectedIndex: 0, detailScroll: 0 };
  const i = clamp(index, 0, rows.length - 1);
  const key = rows[i]?.key;
  const moved = key !== view.selectedKey;
  return { ...view, selectedIndex: i, ...(key ? { selectedKey: key } : {}), detailScroll: moved ? 0 : view.detailScroll };
};

const nextFilter = (filter: ActivityFilter): ActivityFilter =>
  ACTIVITY_FILTERS[(ACTIVITY_FILTERS.indexOf(filter) + 1) % ACTIVITY_FILTERS.length] ?? '';

const notice = (view: ViewState, text: string, tone: Notice['tone'], now: number): ViewState => ({ ...view, notice: { text, tone, at: now } });

const only = (view: ViewState): Reduced => ({ view, effects: [] });

const reducePrompt = (view: ViewState, prompt: Prompt, action: Action): Reduced => {
  const edit = (text: string): Reduced => {
    const next = { ...prompt, text };
    return only(prompt.kind === 'search' ? { ...view, prompt: next, search: text } : { ...view, prompt: next });
  };
  switch (action.type) {
    case 'promptInput':
      return edit(prompt.text + action.text);
    case 'promptBackspace':
      return edit([...prompt.text].slice(0, -1).join(''));
    case 'promptClear':
      return edit('');
    case 'escape': {
      const { prompt: _closed, ...rest } = view;
      return only(prompt.kind === 'search' ? { ...rest, search: prompt.before } : rest);
    }
    case 'promptSubmit': {
      const { prompt: _closed, ...rest } = view;
      if (prompt.kind === 'search') return only({ ...rest, search: prompt.text.trim() });
      if (prompt.kind === 'content') return prompt.text.trim() === '' ? only(rest) : { view: rest, effects: [{ type: 'searchContent', query: prompt.text.trim() }] };
      return { view: rest, effects: [{ type: 'rename', sessionId: prompt.sessionId, name: prompt.text.trim() }] };
    }
    default:
      return only(view);
  }
};

/**
 * Tie an implicit selection (the first row, before any key) to its session, so a list that
 * reorders under it (sessions become active) does not change what the detail panel and the
 * keys act on.
 */
export const pinSelection = (view: ViewState, rows: readonly ListRow[]): ViewState => {
  if (view.selectedKey !== undefined) return view;
  const key = rows[selectedRowIndex(view, rows)]?.key;
  return key === undefined ? view : { ...view, selectedKey: key };
};

/** Keys while the `?` overlay is open: scroll it, close it; everything else waits. */
const reduceHelp = (view: ViewState, help: { readonly scroll: number }, action: Action, ctx: ReduceContext): Reduced => {
  switch (action.type) {
    case 'toggleHelp':
    case 'escape': {
      const { help: _closed, ...rest } = view;
      return only(rest);
    }
    case 'scrollHelp':
      return only({ ...view, help: { scroll: clamp(help.scroll + action.delta, 0, Math.max(0, ctx.helpMaxScroll ?? 0)) } });
    default:
      return only(view);
  }
};

/**
 * After each frame: the selection tied to its session (pinSelection) and the list's first row
 * moved as little as needed to keep the selection in view.
 */
export const settleView = (view: ViewState, rows: readonly ListRow[], visible: number, ready = true): ViewState => {
  // While the first discovery runs, rows still arrive out of order: the first row is not a choice yet.
  const pinned = ready ? pinSelection(view, rows) : view;
  const listOffset = keepInView(pinned.listOffset, selectedRowIndex(pinned, rows), visible, rows.length);
  return listOffset === pinned.listOffset ? pinned : { ...pinned, listOffset };
};

/** The pure reducer: (view, action, what is on screen) -> next view and effects to perform. */
export const reduceView = (view: ViewState, action: Action, ctx: ReduceContext): Reduced => {
  // Answers from the shell apply whatever mode the user is in.
  switch (action.type) {
    case 'quit':
      return { view, effects: [{ type: 'quit' }] };
    case 'notice':
      return only(notice(view, action.text, action.tone, ctx.now));
    case 'limitsLoaded':
      if (view.limits?.request !== action.request) return only(view);
      return only({ ...view, limits: { ...view.limits, phase: 'ready', text: action.text, scroll: 0 } });
    case 'limitsFailed': {
      if (view.limits?.request !== action.request) return only(view);
      const { text: _stale, ...limits } = view.limits;
      return only({ ...view, limits: { ...limits, phase: 'failed', error: action.message } });
    }
    default:
      break;
  }
  if (view.prompt) return reducePrompt(view, view.prompt, action);
  if (view.help) return reduceHelp(view, view.help, action, ctx);
  if (view.limits) return reduceLimits(view, view.limits, action, ctx);

  const { rows } = ctx;
  const index = selectedRowIndex(view, rows);
  const row = rows[index];
  switch (action.type) {
    case 'move':
      if (view.focus === 'detail') return only({ ...view, detailScroll: clamp(view.detailScroll + action.delta, 0, Math.max(0, ctx.detailMaxScroll)) });
      return only(select(view, rows, index + action.delta));
    case 'moveTo':
      if (view.focus === 'detail') return only({ ...view, detailScroll: action.where === 'first' ? 0 : Math.max(0, ctx.detailMaxScroll) });
      return only(select(view, rows, action.where === 'first' ? 0 : rows.length - 1));
    case 'select':
      return only(select({ ...view, focus: 'list' }, rows, action.index));
    case 'scrollList': {
      const visible = Math.max(1, ctx.listVisible ?? 1);
      const listOffset = clamp(view.listOffset + action.delta, 0, Math.max(0, rows.length - visible));
      // The selection stays on its session while that is in view, else the nearest row in view.
      const inView = clamp(index, listOffset, listOffset + visible - 1);
      const moved = inView === index ? { ...view, listOffset } : select({ ...view, listOffset }, rows, inView);
      return only(moved);
    }
    case 'scrollDetail':
      return only({ ...view, detailScroll: clamp(view.detailScroll + action.delta, 0, Math.max(0, ctx.detailMaxScroll)) });
    case 'focus':
      return only({ ...view, focus: action.panel });
    case 'focusNext':
      return only({ ...view, focus: view.focus === 'list' ? 'detail' : 'list' });
    case 'cycleSort':
      return only({ ...view, sort: nextSortMode(view.sort) });
    case 'toggleHelp':
      return only({ ...view, help: { scroll: 0 } });
    case 'widen':
      return only({ ...view, windowMinutes: clamp(view.windowMinutes + action.minutes, WINDOW_MIN, WINDOW_MAX) });
    case 'cycleFilter':
      return only({ ...view, filter: nextFilter(view.filter) });
    case 'startSearch':
      return only({ ...view, prompt: { kind: 'search', text: view.search, before: view.search } });
    case 'startContentSearch':
      return only({ ...view, prompt: { kind: 'content', text: '' } });
    case 'contentResults': {
      if (action.partial === true) {
        // The index still catches up: the hits are what it holds so far, and the notice says so.
        const whole = reduceView(view, { ...action, partial: false }, ctx);
        return whole.view.notice ? { ...whole, view: { ...whole.view, notice: { ...whole.view.notice, text: `${whole.view.notice.text} (search index catching up: results so far)` } } } : whole;
      }
      const shown = action.hits.findIndex((hit) => ctx.rows.some((row) => row.key === hit.key));
      const quoted = JSON.stringify(action.query);
      if (action.hits.length === 0) return only(notice(view, `No session mentions ${quoted}`, 'info', ctx.now));
      if (shown === -1) {
        return only(notice(view, `${quoted}: ${action.hits.length} session(s), none in this list (widen with +, or agentwatch search ${quoted})`, 'info', ctx.now));
      }
      const hit = action.hits[shown] as ContentHit;
      const index = ctx.rows.findIndex((row) => row.key === hit.key);
      // The session is named as the list names it, so the notice points at the row it selected.
      const name = ctx.rows[index]?.summary.display_name ?? hit.key;
      return only(notice(select(view, ctx.rows, index), `${quoted}: ${name}${action.hits.length > 1 ? ` (best of ${action.hits.length})` : ''}`, 'info', ctx.now));
    }
    case 'startRename':
      if (!row) return only(notice(view, 'No session selected to rename', 'error', ctx.now));
      return only({ ...view, prompt: { kind: 'rename', text: row.summary.custom_name, sessionId: row.summary.session_id, label: row.summary.short_name || row.summary.session_id } });
    case 'openEditor':
      if (!row) return only(notice(view, 'No session selected', 'error', ctx.now));
      if (row.summary.cwd === '') return only(notice(view, 'This session has no working directory on record', 'error', ctx.now));
      return { view, effects: [{ type: 'openEditor', cwd: row.summary.cwd }] };
    case 'copyResume': {
      if (!row) return only(notice(view, 'No session selected', 'error', ctx.now));
      const command = resumeCommand(row.state);
      if (command === '') return only(notice(view, 'This session has no resume command', 'error', ctx.now));
      return { view, effects: [{ type: 'copy', text: command }] };
    }
    case 'openLimits':
      return startLimitsRead(view, 'summary');
    case 'escape':
      if (view.search !== '') return only({ ...view, search: '' });
      if (view.focus === 'detail') return only({ ...view, focus: 'list' });
      return only(view);
    default:
      return only(view);
  }
};
