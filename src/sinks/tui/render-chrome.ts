import type { ListCounts } from './model.js';
import { spinnerAt } from './format.js';
import { KEY_HELP, KEY_HELP_COMPACT, LIMITS_KEY_HELP } from './keys.js';
import { fitLine, lineWidth, seg, type Line, type Segment } from './line.js';
import type { ViewState } from './state.js';
import { ellipsize } from './text.js';

/** How long a notice ("Copied ...", "Renamed ...") replaces the key help. */
export const NOTICE_MS = 5000;

const filterLabel = (filter: ViewState['filter']): string => (filter === '' ? 'all' : filter);

/**
 * Title bar: counts, window, filter, search and, until the first discovery completes, a
 * loading indicator. When the terminal is narrow the least useful parts go first (the brand,
 * then diagnostics), never the counts, the window or the filter.
 */
export const renderTitle = (
  view: ViewState,
  counts: ListCounts,
  shown: number,
  ready: boolean,
  diagnostics: number,
  now: number,
  width: number,
): Line => {
  // [priority (lower stays longer), segment]; drawn in array order.
  const parts: [number, Segment][] = [
    [6, seg(' agentwatch', 'title')],
    [0, seg(`  ${counts.total} sessions · ${counts.active} active · ${counts.waiting} waiting`, 'titleAccent')],
    [2, seg(`  window ${view.windowMinutes}m`, 'title')],
    [1, seg(`  filter ${filterLabel(view.filter)}${shown !== counts.total ? ` (${shown} shown)` : ''}`, 'title')],
  ];
  if (view.search !== '' && view.prompt?.kind !== 'search') parts.push([3, seg(`  search "${ellipsize(view.search, 20)}"`, 'title')]);
  if (!ready) parts.push([0, seg(`  ${spinnerAt(now)} discovering sessions…`, 'titleAccent')]);
  // Where and why: `agentwatch doctor` lists each one with its file and line.
  if (diagnostics > 0) parts.push([4, seg(`  ${diagnostics} diagnostic${diagnostics === 1 ? '' : 's'}: agentwatch doctor`, 'title')]);
  const kept = [...parts];
  while (kept.length > 1 && lineWidth(kept.map(([, s]) => s)) > width) {
    const worst = kept.reduce((a, b) => (b[0] >= a[0] ? b : a));
    kept.splice(kept.indexOf(worst), 1);
  }
  return fitLine(
    kept.map(([, s]) => s),
    width,
    'title',
  );
};

const keyHelp = (table: readonly (readonly [string, string])[], gap: string): Segment[] =>
  table.flatMap(([keys, what], i) => [...(i > 0 ? [seg(gap)] : []), seg(keys, 'key'), seg(` ${what}`, 'help')]);

/** The full key table when it fits, else the compact one, so 80 columns still show every key. */
const keysFor = (view: ViewState, width: number): Segment[] => {
  if (view.limits) return keyHelp(LIMITS_KEY_HELP, '  ');
  const full = keyHelp(KEY_HELP, '  ');
  return lineWidth(full) <= width ? full : keyHelp(KEY_HELP_COMPACT, ' ');
};

/** Help bar: the prompt being typed, else a fresh notice, else the keys of the current mode. */
export const renderHelp = (view: ViewState, now: number, width: number): Line => {
  const { prompt } = view;
  if (prompt) {
    const label = prompt.kind === 'search' ? 'Search path: ' : prompt.kind === 'content' ? 'Search messages: ' : `Rename ${prompt.label}: `;
    const hint = prompt.kind === 'search' ? '  enter keep · esc cancel' : prompt.kind === 'content' ? '  enter search · esc cancel' : '  enter save (empty clears) · esc cancel';
    return fitLine([seg(label, 'prompt'), seg(prompt.text, 'value'), seg('▏', 'cursor'), seg(hint, 'help')], width);
  }
  if (view.notice && now - view.notice.at < NOTICE_MS) {
    return fitLine([seg(view.notice.text, view.notice.tone === 'error' ? 'error' : 'info')], width);
  }
  return fitLine(keysFor(view, width), width);
};
