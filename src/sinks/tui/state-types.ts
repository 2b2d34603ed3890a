import type { ActivityFilter } from '../../core/activity.js';
import type { SessionKey } from '../../core/session.js';
import type { ListRow } from './model.js';
import type { SortMode } from './order.js';

/** The TUI's view state, the actions that change it and the effects it asks for (state.ts reduces them). */

type Focus = 'list' | 'detail';

export type Prompt =
  | { readonly kind: 'search'; readonly text: string; /** Restored on Esc. */ readonly before: string }
  | { readonly kind: 'rename'; readonly text: string; readonly sessionId: string; readonly label: string }
  /** `s`: full-text search in what was said (the search index); Enter jumps to the best hit. */
  | { readonly kind: 'content'; readonly text: string };

/** What the limits modal shows: the lines `agentwatch limits` prints, without colors. */
export interface LimitsText {
  readonly summary: readonly string[];
  readonly detailed: readonly string[];
}

export type LimitsTab = 'summary' | 'detailed';

export interface LimitsView {
  readonly tab: LimitsTab;
  readonly scroll: number;
  /** Id of the read in flight; an answer for an older read is ignored. */
  readonly request: number;
  readonly phase: 'loading' | 'ready' | 'failed';
  readonly text?: LimitsText;
  readonly error?: string;
}

export interface Notice {
  readonly text: string;
  readonly tone: 'info' | 'error';
  readonly at: number;
}

export interface ViewState {
  readonly focus: Focus;
  /** The selection follows the session, not the row number, while the list reorders. */
  readonly selectedKey?: SessionKey;
  /** Where the selection was, used when its session leaves the list. */
  readonly selectedIndex: number;
  readonly detailScroll: number;
  readonly windowMinutes: number;
  readonly filter: ActivityFilter;
  readonly search: string;
  readonly prompt?: Prompt;
  readonly limits?: LimitsView;
  readonly notice?: Notice;
  /** Counter of limits reads, so each read has a fresh id. */
  readonly limitsRequests: number;
  readonly sort: SortMode;
  /** First list row on screen; the shell keeps the selection inside the view. */
  readonly listOffset: number;
  /** The `?` overlay (every key, the glyph legend, the warnings), scrolled by `scroll` lines. */
  readonly help?: { readonly scroll: number };
}

/** What keys mean (see keys.ts) plus what the shell reports back. */
export type Action =
  | { readonly type: 'move'; readonly delta: number }
  | { readonly type: 'moveTo'; readonly where: 'first' | 'last' }
  /** A click on a list row: its index in the rows. */
  | { readonly type: 'select'; readonly index: number }
  /** The mouse wheel over the list: the view moves, the selection stays on its session while in view. */
  | { readonly type: 'scrollList'; readonly delta: number }
  /** The mouse wheel or a click over the detail panel. */
  | { readonly type: 'scrollDetail'; readonly delta: number }
  | { readonly type: 'focus'; readonly panel: Focus }
  | { readonly type: 'cycleSort' }
  | { readonly type: 'toggleHelp' }
  | { readonly type: 'scrollHelp'; readonly delta: number }
  | { readonly type: 'focusNext' }
  | { readonly type: 'widen'; readonly minutes: number }
  | { readonly type: 'cycleFilter' }
  | { readonly type: 'startSearch' }
  | { readonly type: 'startContentSearch' }
  | { readonly type: 'contentResults'; readonly query: string; readonly hits: readonly ContentHit[]; readonly partial?: boolean }
  | { readonly type: 'startRename' }
  | { readonly type: 'openEditor' }
  | { readonly type: 'copyResume' }
  | { readonly type: 'openLimits' }
  | { readonly type: 'refreshLimits' }
  | { readonly type: 'closeLimits' }
  | { readonly type: 'limitsTab'; readonly tab?: LimitsTab }
  | { readonly type: 'scrollLimits'; readonly delta: number }
  | { readonly type: 'escape' }
  | { readonly type: 'quit' }
  | { readonly type: 'promptInput'; readonly text: string }
  | { readonly type: 'promptBackspace' }
  | { readonly type: 'promptClear' }
  | { readonly type: 'promptSubmit' }
  | { readonly type: 'limitsLoaded'; readonly request: number; readonly text: LimitsText }
  | { readonly type: 'limitsFailed'; readonly request: number; readonly message: string }
  | { readonly type: 'notice'; readonly text: string; readonly tone: Notice['tone'] };

export type Effect =
  | { readonly type: 'quit' }
  | { readonly type: 'openEditor'; readonly cwd: string }
  | { readonly type: 'copy'; readonly text: string }
  | { readonly type: 'rename'; readonly sessionId: string; readonly name: string }
  | { readonly type: 'loadLimits'; readonly request: number }
  | { readonly type: 'searchContent'; readonly query: string };

/** A session whose messages match a content search, best first. */
export interface ContentHit {
  readonly key: SessionKey;
}

/** What the reducer may look at besides the view: the rows on screen and scroll bounds. */
export interface ReduceContext {
  readonly rows: readonly ListRow[];
  readonly now: number;
  /** Largest useful scroll offsets, from the current layout (see render.ts). */
  readonly detailMaxScroll: number;
  readonly limitsMaxScroll: number;
  /** Session rows the list shows at once (the wheel scrolls by view, not past it). */
  readonly listVisible?: number;
  readonly helpMaxScroll?: number;
}

export interface Reduced {
  readonly view: ViewState;
  readonly effects: readonly Effect[];
}
