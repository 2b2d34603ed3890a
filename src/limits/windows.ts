import type { LimitReport, LimitWindow } from './types.js';

export const FIVE_HOURS = 5 * 3600;
export const ONE_WEEK = 7 * 86_400;
const FOUR_WEEKS = 28 * 86_400;

/**
 * A human label from a window's length: 300 minutes is `5-hour`, 10 080 minutes `7-day`, then
 * whole days, whole hours, minutes, seconds. Used wherever the payload gives a duration.
 */
export const labelForSeconds = (seconds: number): string => {
  if (seconds === FIVE_HOURS) return '5-hour';
  if (seconds === ONE_WEEK) return '7-day';
  if (seconds > 0 && seconds % 86_400 === 0) return `${seconds / 86_400}-day`;
  if (seconds > 0 && seconds % 3600 === 0) return `${seconds / 3600}-hour`;
  if (seconds > 0 && seconds % 60 === 0) return `${seconds / 60}-minute`;
  return `${seconds}-second`;
};

const isFiveHour = (w: LimitWindow): boolean => w.windowSeconds === FIVE_HOURS || /^5[- ]hour|^5h$/i.test(w.label);
const isWeek = (w: LimitWindow): boolean => w.windowSeconds === ONE_WEEK || /^(7[- ]day|week|weekly)$/i.test(w.label);
const isLong = (w: LimitWindow): boolean => (w.windowSeconds ?? 0) >= FOUR_WEEKS || /month|global|total/i.test(w.label);

/**
 * The window of each summary column. 5h: the 5-hour window, never for grok or cursor.
 * Week (or Global): the weekly window, else a monthly/global one; grok's single credit window
 * always lands here, whatever its period.
 */
export const summaryColumns = (report: LimitReport): { fiveHour?: LimitWindow; week?: LimitWindow } => {
  const creditOnly = report.row === 'Grok' || report.row === 'Cursor Models' || report.row === 'Cursor API';
  const fiveHour = creditOnly ? undefined : report.windows.find(isFiveHour);
  const week = report.windows.find(isWeek) ?? report.windows.find(isLong) ?? (creditOnly ? report.windows[0] : undefined);
  return { ...(fiveHour ? { fiveHour } : {}), ...(week ? { week } : {}) };
};

/**
 * One order for every agent: shortest window first (5-hour before 7-day before monthly), those
 * of unknown length last, ties in the provider's order. Kimi answers weekly first; claude and
 * codex the other way round, so without this the detailed report and the JSON listed them
 * differently per agent.
 */
export const inWindowOrder = <W extends Pick<LimitWindow, 'windowSeconds'>>(windows: readonly W[]): W[] =>
  windows
    .map((window, index) => ({ window, index }))
    .sort((a, b) => (a.window.windowSeconds ?? Infinity) - (b.window.windowSeconds ?? Infinity) || a.index - b.index)
    .map(({ window }) => window);

/** `source` of windows read from what an agent wrote to disk, not asked of its vendor. */
export const SESSION_FILE = 'session file';
/** `source` of the live windows when an agent's own snapshot is shown beside them. */
export const LIVE = 'live';

export const isFromSessionFile = (window: Pick<LimitWindow, 'source'>): boolean => window.source === SESSION_FILE;

/**
 * A report's windows in two groups: `main` the live answer (or the snapshot when it is all there
 * is), `beside` a snapshot shown under a live answer.
 */
export const splitBySource = <W extends Pick<LimitWindow, 'source'>>(windows: readonly W[]): { main: W[]; beside: W[] } => {
  const live = windows.filter((w) => !isFromSessionFile(w));
  return live.length === 0 ? { main: [...windows], beside: [] } : { main: live, beside: windows.filter(isFromSessionFile) };
};

/** The live windows shortest first, then a snapshot's beside them, shortest first. */
export const inSourceOrder = <W extends Pick<LimitWindow, 'windowSeconds' | 'source'>>(windows: readonly W[]): W[] => {
  const { main, beside } = splitBySource(windows);
  return [...inWindowOrder(main), ...inWindowOrder(beside)];
};
