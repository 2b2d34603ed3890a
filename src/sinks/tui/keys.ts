import { WINDOW_MAX, WINDOW_MIN, WINDOW_STEP, type Action } from './state.js';

/**
 * Key -> action, pure. Key names are terminal-kit's (`UP`, `CTRL_C`, `ESCAPE`, `k`...);
 * `isCharacter` marks printable input, which a prompt takes as text.
 */
export interface KeyPress {
  readonly name: string;
  readonly isCharacter: boolean;
}

/** Which keys apply: the list and detail panels, the limits modal, the `?` overlay, or a text prompt. */
export type KeyMode = 'normal' | 'limits' | 'help' | 'prompt';

const NORMAL: Readonly<Record<string, Action>> = {
  UP: { type: 'move', delta: -1 },
  k: { type: 'move', delta: -1 },
  DOWN: { type: 'move', delta: 1 },
  j: { type: 'move', delta: 1 },
  PAGE_UP: { type: 'move', delta: -10 },
  PAGE_DOWN: { type: 'move', delta: 10 },
  HOME: { type: 'moveTo', where: 'first' },
  g: { type: 'moveTo', where: 'first' },
  END: { type: 'moveTo', where: 'last' },
  G: { type: 'moveTo', where: 'last' },
  TAB: { type: 'focusNext' },
  SHIFT_TAB: { type: 'focusNext' },
  '+': { type: 'widen', minutes: WINDOW_STEP },
  '=': { type: 'widen', minutes: WINDOW_STEP },
  '-': { type: 'widen', minutes: -WINDOW_STEP },
  _: { type: 'widen', minutes: -WINDOW_STEP },
  f: { type: 'cycleFilter' },
  '/': { type: 'startSearch' },
  s: { type: 'startContentSearch' },
  o: { type: 'openEditor' },
  c: { type: 'copyResume' },
  r: { type: 'startRename' },
  l: { type: 'openLimits' },
  S: { type: 'cycleSort' },
  '?': { type: 'toggleHelp' },
  ESCAPE: { type: 'escape' },
  q: { type: 'quit' },
  CTRL_C: { type: 'quit' },
};

const HELP: Readonly<Record<string, Action>> = {
  '?': { type: 'toggleHelp' },
  ESCAPE: { type: 'toggleHelp' },
  q: { type: 'toggleHelp' },
  CTRL_C: { type: 'quit' },
  UP: { type: 'scrollHelp', delta: -1 },
  k: { type: 'scrollHelp', delta: -1 },
  DOWN: { type: 'scrollHelp', delta: 1 },
  j: { type: 'scrollHelp', delta: 1 },
  PAGE_UP: { type: 'scrollHelp', delta: -10 },
  PAGE_DOWN: { type: 'scrollHelp', delta: 10 },
};

const LIMITS: Readonly<Record<string, Action>> = {
  ESCAPE: { type: 'closeLimits' },
  l: { type: 'closeLimits' },
  q: { type: 'closeLimits' },
  CTRL_C: { type: 'quit' },
  r: { type: 'refreshLimits' },
  TAB: { type: 'limitsTab' },
  SHIFT_TAB: { type: 'limitsTab' },
  LEFT: { type: 'limitsTab', tab: 'summary' },
  h: { type: 'limitsTab', tab: 'summary' },
  '1': { type: 'limitsTab', tab: 'summary' },
  RIGHT: { type: 'limitsTab', tab: 'detailed' },
  '2': { type: 'limitsTab', tab: 'detailed' },
  UP: { type: 'scrollLimits', delta: -1 },
  k: { type: 'scrollLimits', delta: -1 },
  DOWN: { type: 'scrollLimits', delta: 1 },
  j: { type: 'scrollLimits', delta: 1 },
  PAGE_UP: { type: 'scrollLimits', delta: -10 },
  PAGE_DOWN: { type: 'scrollLimits', delta: 10 },
};

const PROMPT: Readonly<Record<string, Action>> = {
  ESCAPE: { type: 'escape' },
  ENTER: { type: 'promptSubmit' },
  KP_ENTER: { type: 'promptSubmit' },
  BACKSPACE: { type: 'promptBackspace' },
  CTRL_U: { type: 'promptClear' },
  CTRL_C: { type: 'quit' },
};

/** The action of a key in a mode; `undefined` for keys that mean nothing there. */
export const keyToAction = (key: KeyPress, mode: KeyMode): Action | undefined => {
  if (mode === 'prompt') {
    if (Object.hasOwn(PROMPT, key.name)) return PROMPT[key.name];
    return key.isCharacter ? { type: 'promptInput', text: key.name } : undefined;
  }
  const table = mode === 'limits' ? LIMITS : mode === 'help' ? HELP : NORMAL;
  return Object.hasOwn(table, key.name) ? table[key.name] : undefined;
};

/** The key table shown by the help bar and the README, in reading order. */
export const KEY_HELP: readonly (readonly [keys: string, what: string])[] = [
  ['↑↓ jk', 'move'],
  ['tab', 'panel'],
  ['+/-', 'window'],
  ['f', 'filter'],
  ['/', 'search'],
  ['s', 'in messages'],
  ['o', 'open'],
  ['c', 'copy resume'],
  ['r', 'rename'],
  ['l', 'limits'],
  ['S', 'sort'],
  ['?', 'help'],
  ['q', 'quit'],
];

/** The same keys in fewer cells, for terminals narrower than the full table (80 columns); `?` shows the rest. */
export const KEY_HELP_COMPACT: readonly (readonly [keys: string, what: string])[] = [
  ['tab', 'panel'],
  ['+-', 'window'],
  ['f', 'filter'],
  ['/', 'find'],
  ['s', 'search'],
  ['l', 'limits'],
  ['S', 'sort'],
  ['?', 'help'],
  ['q', 'quit'],
];

/**
 * Every key, by mode, as the `?` overlay lists them. A key added to a table above belongs here
 * too (a test checks that every bound key is listed).
 */
export const KEY_REFERENCE: readonly { readonly title: string; readonly keys: readonly (readonly [keys: string, what: string])[] }[] = [
  {
    title: 'Move',
    keys: [
      ['↑ ↓  k j', 'previous / next session (in the detail panel: scroll)'],
      ['PgUp PgDn', 'ten rows up / down'],
      ['Home End  g G', 'first / last session'],
      ['tab  shift-tab', 'switch between the list and the detail panel'],
      ['click', 'select a session (the detail panel: focus it)'],
      ['wheel', 'scroll the list, the detail panel or an open window'],
    ],
  },
  {
    title: 'Show',
    keys: [
      ['+ =  - _', `widen / narrow the time window by ${WINDOW_STEP} minutes (${WINDOW_MIN}-${WINDOW_MAX})`],
      ['f', 'filter: all, active, then one activity at a time'],
      ['S', 'sort: needs you first, recent, started, name, cost, project'],
      ['/', 'find sessions by name or path (esc clears)'],
      ['s', 'search what was said in every session; jumps to the best match'],
      ['enter  ctrl-u', 'in a prompt (/ s r): keep it (s: jump to the best match) / clear it'],
      ['esc', 'clear the search, leave the detail panel, close a window'],
    ],
  },
  {
    title: 'Act on the selected session',
    keys: [
      ['o', 'open its directory in your editor (config editor, $VISUAL, $EDITOR)'],
      ['c', 'copy its resume command (OSC 52 and the system clipboard)'],
      ['r', 'rename it (an empty name clears the custom name)'],
    ],
  },
  {
    title: 'Windows',
    keys: [
      ['l', 'rate-limit windows (read on open, r re-reads, never polled)'],
      ['  tab ← → 1 2 h', 'Summary / Detailed tab (in the limits window)'],
      ['?', 'this help (esc or ? closes)'],
      ['q  ctrl-c', 'quit (q closes an open window first)'],
    ],
  },
];

export const LIMITS_KEY_HELP: readonly (readonly [keys: string, what: string])[] = [
  ['tab ←→', 'Summary/Detailed'],
  ['↑↓ jk', 'scroll'],
  ['r', 're-read'],
  ['esc', 'close'],
];

/** A mouse event as terminal-kit names it, at 0-based cell coordinates. */
export interface MousePress {
  readonly name: string;
  readonly x: number;
  readonly y: number;
}

/** Rows the wheel moves per notch. */
export const WHEEL_ROWS = 3;

/** The wheel direction of a mouse event: -1 up, 1 down, 0 not the wheel. */
export const wheelOf = (name: string): -1 | 0 | 1 => (name === 'MOUSE_WHEEL_UP' ? -1 : name === 'MOUSE_WHEEL_DOWN' ? 1 : 0);

export const isClick = (name: string): boolean => name === 'MOUSE_LEFT_BUTTON_PRESSED';
