import { severityOf, usedBarTone, type BarTone, type Severity } from '../../../src/limits/pace.js';
import { absoluteTime, ageText, relativeTime } from '../../../src/limits/time-format.js';
import { isFromSessionFile } from '../../../src/limits/windows.js';
import type { LimitsJson } from './wire.js';

/** Pure shaping of `GET /api/limits` for the limits views (same rules as the CLI table). */

export type LimitsRow = LimitsJson['rows'][number];
export type LimitsWindow = LimitsRow['windows'][number];

/** The severity color of a window, by the CLI's rule (pace.ts). */
export const windowSeverity = (w: LimitsWindow): Severity =>
  severityOf({
    window: { label: w.label, usedPercent: w.used_percent, resetsAt: w.resets_at === null ? null : Date.parse(w.resets_at) },
    usedPercent: w.used_percent,
    elapsedPercent: w.elapsed_percent,
    expectedPercent: w.expected_percent,
    ratio: w.pace === null ? null : w.elapsed_percent > 0 ? w.used_percent / w.elapsed_percent : null,
    pace: w.pace,
  });

/** The Detailed view's Used bar color, by used percent alone (as the CLI's `--detailed`). */
export const usedTone = (w: LimitsWindow): BarTone => usedBarTone(w.used_percent);

export const resetsText = (w: LimitsWindow, now: number): string =>
  w.resets_at === null ? 'not started' : relativeTime(Date.parse(w.resets_at), now);

export const resetsAbsolute = (w: LimitsWindow): string => (w.resets_at === null ? 'the window opens with the first request' : absoluteTime(Date.parse(w.resets_at)));

/** "on track 1.02x" or "-" under 1% elapsed (docs/limits.md). */
export const paceText = (w: LimitsWindow): string => {
  if (w.pace === null || w.elapsed_percent <= 0) return '–';
  return `${w.pace} ${(w.used_percent / w.elapsed_percent).toFixed(2)}x`;
};

export const percentText = (value: number): string => `${Math.round(value)}%`;

/** Rows with figures or errors first; skipped agents (no login found) only named at the end. */
export const splitRows = (limits: LimitsJson): { shown: LimitsRow[]; skipped: LimitsRow[] } => ({
  shown: limits.rows.filter((row) => row.status !== 'skipped'),
  skipped: limits.rows.filter((row) => row.status === 'skipped'),
});

/** Bar width in percent, clamped (a reported 130% fills the bar). */
export const barPercent = (value: number): number => Math.min(100, Math.max(0, value));

/** A window's key in its row: a snapshot's 5-hour window stands beside the live one of that name. */
export const windowKey = (w: LimitsWindow): string => `${isFromSessionFile(w) ? 'file' : 'live'}:${w.label}`;

/** `session file, 3 min ago`: the heading of a snapshot's windows shown under the live ones. */
export const besideHeading = (w: LimitsWindow, now: number): string => `${w.source ?? ''}${w.observed_at ? `, ${ageText(Date.parse(w.observed_at), now)}` : ''}`;

/** Each different note of a row once, in order (the live answer's, then where a snapshot came from). */
export const rowNotes = (row: LimitsRow): string[] => [...new Set(row.windows.flatMap((w) => (w.note ? [w.note] : [])))];
