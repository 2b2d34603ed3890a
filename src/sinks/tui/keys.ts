import type { Action } from './state.js';

/**
 * Key -> action, pure. Key names are terminal-kit's (`UP`, `CTRL_C`, `ESCAPE`, `k`...);
 * `isCharacter` marks printable input, which a prompt takes as text.
 */
export interface KeyPress {
  readonly name: string;
  readonly isCharacter: boolean;
}

/** Which keys apply: the list and detail panels, the limits modal, or a text prompt. */
export type KeyMode = 'normal' | 'limits' | 'prompt';

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
  '+': { type: 'widen', minutes: 10 },
  '=': { type: 'widen', minutes: 10 },
  '-': { type: 'widen', minutes: -10 },
  _: { type: 'widen', minutes: -10 },
  f: { type: 'cycleFilter' },
  '/': { type: 'startSearch' },
  s: { type: 'startContentSearch' },
  o: { type: 'openEditor' },
  c: { type: 'copyResume' },
  r: { type: 'startRename' },
  l: { type: 'openLimits' },
  ESCAPE: { type: 'escape' },
  q: { type: 'quit' },
  CTRL_C: { type: 'quit' },
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
  const table = mode === 'limits' ? LIMITS : NORMAL;
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
  ['q', 'quit'],
];

/** The same keys in fewer cells, for terminals narrower than the full table (80 columns). */
export const KEY_HELP_COMPACT: readonly (readonly [keys: string, what: string])[] = [
  ['tab', 'panel'],
  ['+-', 'window'],
  ['f', 'filter'],
  ['/', 'search'],
  ['o', 'open'],
  ['c', 'copy'],
  ['r', 'rename'],
  ['l', 'limits'],
  ['q', 'quit'],
];

export const LIMITS_KEY_HELP: readonly (readonly [keys: string, what: string])[] = [
  ['tab ←→', 'Summary/Detailed'],
  ['↑↓ jk', 'scroll'],
  ['r', 're-read'],
  ['esc', 'close'],
];
