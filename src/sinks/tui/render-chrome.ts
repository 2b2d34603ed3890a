import type { HistoryProgress } from '../../core/contracts.js';
import { historyShare, readingHistory } from '../../core/history.js';
import type { ListCounts } from './model.js';
import { spinnerAt } from './format.js';
import { KEY_HELP, KEY_HELP_COMPACT, LIMITS_KEY_HELP } from './keys.js';
import { clipLine, lineWidth, seg, type Line, type Segment } from './line.js';
import { SORT_SHORT } from './order.js';
import type { ViewState } from './state.js';
import { ellipsize } from './text.js';

/** How long a notice ("Copied ...", "Renamed ...") replaces the key help. */
const NOTICE_MS = 5000;

const filterLabel = (filter: ViewState['filter']): string => (filter === '' ? 'all' : filter);

/** Cells of the progress bar of the history read. */
const BAR_CELLS = 10;

/** "reading history: 3,200 of 10,000 ▰▰▰▱▱▱▱▱▱▱" */
const historyProgress = (history: HistoryProgress): string => {
  const filled = Math.floor(historyShare(history) * BAR_CELLS);
  return `${readingHistory(history)} ${'▰'.repeat(filled)}${'▱'.repeat(BAR_CELLS - filled)}`;
};

/**
 * Title bar: counts, window, filter, sort, search and, until the first discovery completes, a
 * loading indicator (how much of the history is read, once the sources have counted it). When
 * the terminal is narrow the least useful parts go first (the sort, then the brand: at 80
 * columns the window still says whose it is), never the counts, the window or the filter.
 */
export const renderTitle = (view: ViewState, counts: ListCounts, shown: number, ready: boolean, now: number, width: number, history?: HistoryProgress): Line => {
  // [priority (lower stays longer), segment]; drawn in array order.
  const parts: [number, Segment][] = [
    [4, seg(' agentwatch', 'title')],
    [0, seg(`  ${counts.total} sessions · ${counts.active} active · ${counts.waiting} waiting`, 'titleAccent')],
    [2, seg(`  window ${view.windowMinutes}m`, 'title')],
    [1, seg(`  filter ${filterLabel(view.filter)}${shown !== counts.total ? ` (${shown} shown)` : ''}`, 'title')],
  ];
  parts.push([5, seg(`  sort ${SORT_SHORT[view.sort]}`, 'title')]);
  if (view.search !== '' && view.prompt?.kind !== 'search') parts.push([3, seg(`  search "${ellipsize(view.search, 20)}"`, 'title')]);
  if (!ready) {
    const full = `  ${spinnerAt(now)} ${history ? historyProgress(history) : 'discovering sessions…'}`;
    // Narrow terminals get the short form rather than none: "reading history 32%".
    const short = history ? `  ${spinnerAt(now)} reading history ${Math.floor(historyShare(history) * 100)}%` : full;
    const counted = lineWidth([parts[1]?.[1] ?? seg('')]);
    parts.push([0, seg(counted + full.length <= width ? full : short, 'titleAccent')]);
  }
  const kept = [...parts];
  while (kept.length > 1 && lineWidth(kept.map(([, s]) => s)) > width) {
    const worst = kept.reduce((a, b) => (b[0] >= a[0] ? b : a));
    kept.splice(kept.indexOf(worst), 1);
  }
  return clipLine(
    kept.map(([, s]) => s),
    width,
    'title',
  );
};

/**
 * The status line that opens the list when something needs the user: how many warnings were
 * written while the TUI runs (config typos, unreadable directories, webhook receivers down) and
 * how many problems the sources met that need the user, where to read more, then the latest warning;
 * or, while a store runs without its disk, that (`webhook queue in memory: disk full`).
 */
export const renderStatus = (warnings: readonly string[], diagnostics: number, width: number, degraded: readonly string[] = []): Line => {
  const counts = [
    ...(warnings.length > 0 ? [`${warnings.length} warning${warnings.length === 1 ? '' : 's'}`] : []),
    ...(diagnostics > 0 ? [`${diagnostics} problem${diagnostics === 1 ? '' : 's'} reading sessions`] : []),
  ].join(' · ');
  // A store without its disk is said first, in place of the latest warning, while it lasts (it clears when the disk recovers).
  if (degraded.length > 0) {
    const tail = warnings.length > 0 ? [seg(' · ? lists all', 'status')] : [];
    return clipLine([seg(' ! ', 'statusWarn'), seg([...degraded, ...(counts ? [counts] : [])].join(' · '), 'statusWarn'), ...tail], width, 'status');
  }
  // The latest warning without its file's directory (`config.json: unknown key …`): the ? overlay has it whole.
  const latest = warnings.at(-1)?.replace(/^(?:\/[^\s/]+)*\/([^\s/]+): /, '$1: ');
  if (latest === undefined) return clipLine([seg(' ! ', 'statusWarn'), seg(counts, 'statusWarn'), seg(' · run agentwatch doctor', 'status')], width, 'status');
  const head: Segment[] = [seg(' ! ', 'statusWarn'), seg(`${counts}: `, 'statusWarn')];
  const tail: Segment[] = [seg(' · ? lists all · agentwatch doctor', 'status')];
  const room = width - lineWidth(head) - lineWidth(tail);
  return clipLine([...head, ...(room >= 8 ? [seg(ellipsize(latest, room), 'status')] : []), ...tail], width, 'status');
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
    return clipLine([seg(label, 'prompt'), seg(prompt.text, 'value'), seg('▏', 'cursor'), seg(hint, 'help')], width);
  }
  if (view.notice && now - view.notice.at < NOTICE_MS) {
    return clipLine([seg(view.notice.text, view.notice.tone === 'error' ? 'error' : 'info')], width);
  }
  return clipLine(keysFor(view, width), width);
};
