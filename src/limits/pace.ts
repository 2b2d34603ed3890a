import type { LimitWindow } from './types.js';

/** The pace label of a window (docs/limits.md); `null` renders as a dash (under 1% elapsed). */
export type PaceLabel = 'underutilizing' | 'on track' | 'overutilizing';

/** Below this elapsed share the used/elapsed ratio means nothing (docs/limits.md). */
const PACE_MIN_ELAPSED = 1;
const UNDER_PACE = 0.85;
const OVER_PACE = 1.15;

const clampPercent = (value: number): number => Math.min(100, Math.max(0, value));

/**
 * Share of the window's time that has passed at `now`, 0-100. Unknown reset or length → 0;
 * a reset already in the past → 100; a reset further away than the window is long → 0 (clock
 * skew or a wrong duration, never a negative figure).
 */
export const elapsedPercent = (window: LimitWindow, now: number): number => {
  if (window.resetsAt === null) return 0;
  if (now >= window.resetsAt) return 100;
  const start = window.startsAt ?? (window.windowSeconds ? window.resetsAt - window.windowSeconds * 1000 : undefined);
  if (start === undefined || window.resetsAt <= start) return 0;
  return clampPercent(((now - start) / (window.resetsAt - start)) * 100);
};

/** used / elapsed, or `null` while less than 1% of the window has passed. */
export const paceRatio = (usedPercent: number, elapsed: number): number | null =>
  elapsed < PACE_MIN_ELAPSED ? null : usedPercent / elapsed;

export const classifyPace = (ratio: number | null): PaceLabel | null => {
  if (ratio === null) return null;
  if (ratio < UNDER_PACE) return 'underutilizing';
  if (ratio > OVER_PACE) return 'overutilizing';
  return 'on track';
};

/** Everything a renderer shows about one window at one instant. */
export interface WindowView {
  readonly window: LimitWindow;
  readonly usedPercent: number;
  readonly elapsedPercent: number;
  /** Linear pace: the share that would be used by now if consumption were even (= elapsed). */
  readonly expectedPercent: number;
  readonly ratio: number | null;
  readonly pace: PaceLabel | null;
}

export const viewWindow = (window: LimitWindow, now: number): WindowView => {
  const elapsed = elapsedPercent(window, now);
  const ratio = paceRatio(window.usedPercent, elapsed);
  return { window, usedPercent: window.usedPercent, elapsedPercent: elapsed, expectedPercent: elapsed, ratio, pace: classifyPace(ratio) };
};

/** Summary-cell severity: danger beats warn beats the pace colors. */
export type Severity = 'danger' | 'warn' | 'ok' | 'neutral';

export const severityOf = (view: WindowView): Severity => {
  if (view.usedPercent >= 90 || view.pace === 'overutilizing') return 'danger';
  if (view.usedPercent >= 75) return 'warn';
  if (view.pace === 'underutilizing') return 'ok';
  return 'neutral';
};

/** Bar color of the Used line: green <= 50, blue <= 75, orange <= 90, red above. */
export type BarTone = 'green' | 'blue' | 'orange' | 'red';

export const usedBarTone = (usedPercent: number): BarTone => {
  if (usedPercent <= 50) return 'green';
  if (usedPercent <= 75) return 'blue';
  if (usedPercent <= 90) return 'orange';
  return 'red';
};
