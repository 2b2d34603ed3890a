import type { HistoryProgress } from './contracts.js';

/**
 * What every interface says while the first discovery reads the history (the terminal's title
 * row, the dashboard's footer): "reading history: 3,200 of 10,000". Nothing is said once ready.
 */
export const readingHistory = (history: HistoryProgress): string => `reading history: ${history.read.toLocaleString('en-US')} of ${history.total.toLocaleString('en-US')}`;

/** The share of the history read, 0 to 1 (1 when there was nothing to read). */
export const historyShare = (history: HistoryProgress): number => (history.total <= 0 ? 1 : Math.min(1, Math.max(0, history.read / history.total)));
