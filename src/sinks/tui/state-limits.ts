import type { Action, LimitsTab, LimitsView, ReduceContext, Reduced, ViewState } from './state-types.js';

/** The limits modal's part of the view reducer: read on entry and on r, never polled (docs/tui.md). */

const clamp = (value: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, value));
const only = (view: ViewState): Reduced => ({ view, effects: [] });

/** A new read: a fresh request id (answers to older ones are dropped); the last text stays visible meanwhile. */
export const startLimitsRead = (view: ViewState, tab: LimitsTab): Reduced => {
  const request = view.limitsRequests + 1;
  return {
    view: { ...view, limitsRequests: request, limits: { tab, scroll: 0, request, phase: 'loading', ...(view.limits?.text ? { text: view.limits.text } : {}) } },
    effects: [{ type: 'loadLimits', request }],
  };
};

/** Keys while the modal is open. */
export const reduceLimits = (view: ViewState, limits: LimitsView, action: Action, ctx: ReduceContext): Reduced => {
  switch (action.type) {
    case 'closeLimits':
    case 'escape': {
      const { limits: _closed, ...rest } = view;
      return only(rest);
    }
    case 'refreshLimits':
      return startLimitsRead(view, limits.tab);
    case 'limitsTab': {
      const tab = action.tab ?? (limits.tab === 'summary' ? 'detailed' : 'summary');
      return only({ ...view, limits: { ...limits, tab, scroll: 0 } });
    }
    case 'scrollLimits':
      return only({ ...view, limits: { ...limits, scroll: clamp(limits.scroll + action.delta, 0, Math.max(0, ctx.limitsMaxScroll)) } });
    default:
      return only(view);
  }
};

