/** The dashboard's keys (docs/dashboard.md), as a pure table (unit-tested). */

export type KeyAction = 'search' | 'filter' | 'widen' | 'narrow' | 'limits' | 'refresh-limits' | 'down' | 'up' | 'open' | 'shortcuts' | 'escape';

const TABLE: Readonly<Record<string, KeyAction>> = {
  '/': 'search',
  f: 'filter',
  '+': 'widen',
  '=': 'widen',
  '-': 'narrow',
  _: 'narrow',
  l: 'limits',
  r: 'refresh-limits',
  j: 'down',
  ArrowDown: 'down',
  k: 'up',
  ArrowUp: 'up',
  Enter: 'open',
  '?': 'shortcuts',
  Escape: 'escape',
};

export interface KeyInput {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

/** The action of a key press; while the user types in a field only Esc means something. */
export const keyAction = (event: KeyInput, typing: boolean): KeyAction | undefined => {
  if (event.ctrlKey || event.metaKey || event.altKey) return undefined;
  if (typing) return event.key === 'Escape' ? 'escape' : undefined;
  return TABLE[event.key];
};

/** The list shown by the `?` overlay. */
export const SHORTCUTS: readonly { readonly keys: readonly string[]; readonly what: string }[] = [
  { keys: ['/'], what: 'Search names and paths (and what was said, when the server indexes it)' },
  { keys: ['f'], what: 'Next activity filter' },
  { keys: ['+', '-'], what: 'Widen / narrow the time window' },
  { keys: ['j', 'k'], what: 'Move the selection' },
  { keys: ['Enter'], what: 'Open the selected session' },
  { keys: ['l'], what: 'Limits (in the panel view, l closes them too)' },
  { keys: ['r'], what: 'Re-read the limits while they are open' },
  { keys: ['?'], what: 'This list' },
  { keys: ['Esc'], what: 'Close the overlay, settings or detail panel (the limits dialog closes with its Close button); in the search box, clear it and go back to the cards' },
];
