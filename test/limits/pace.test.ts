import { describe, expect, it } from 'vitest';
import { classifyPace, elapsedPercent, paceRatio, severityOf, usedBarTone, viewWindow } from '../../src/limits/pace.js';
import { absoluteTime, relativeTime } from '../../src/limits/time-format.js';
import type { LimitReport, LimitWindow } from '../../src/limits/types.js';
import { labelForSeconds, summaryColumns } from '../../src/limits/windows.js';

const NOW = Date.parse('2026-09-10T14:00:00Z');
const HOUR = 3_600_000;

const fiveHour = (usedPercent: number, resetsInMs: number | null): LimitWindow => ({
  label: '5-hour',
  windowSeconds: 18_000,
  usedPercent,
  resetsAt: resetsInMs === null ? null : NOW + resetsInMs,
});

describe('elapsedPercent (injected clock)', () => {
  it('is the share of the window behind us, from the reset and the length', () => {
    expect(elapsedPercent(fiveHour(10, 2 * HOUR), NOW)).toBeCloseTo(60);
  });
  it('uses an explicit start when the provider gives one', () => {
    const window: LimitWindow = { label: 'monthly', usedPercent: 5, resetsAt: NOW + 30 * HOUR, startsAt: NOW - 10 * HOUR };
    expect(elapsedPercent(window, NOW)).toBeCloseTo(25);
  });
  it('is 0 for an unknown reset or length, 100 once the reset has passed', () => {
    expect(elapsedPercent(fiveHour(0, null), NOW)).toBe(0);
    expect(elapsedPercent({ label: 'x', usedPercent: 1, resetsAt: NOW + HOUR }, NOW)).toBe(0);
    expect(elapsedPercent(fiveHour(50, -1), NOW)).toBe(100);
  });
  it('clamps to 0 when the reset is further away than the window is long (clock skew)', () => {
    expect(elapsedPercent(fiveHour(50, 6 * HOUR), NOW)).toBe(0);
  });
  it('moves with the clock it is given', () => {
    const window = fiveHour(10, 5 * HOUR);
    expect(elapsedPercent(window, NOW)).toBe(0);
    expect(elapsedPercent(window, NOW + 2.5 * HOUR)).toBeCloseTo(50);
  });
});

describe('pace', () => {
  it('classifies at the boundaries 0.85 and 1.15 (both on track)', () => {
    expect(classifyPace(0.84)).toBe('underutilizing');
    expect(classifyPace(0.85)).toBe('on track');
    expect(classifyPace(1.15)).toBe('on track');
    expect(classifyPace(1.16)).toBe('overutilizing');
  });
  it('has no ratio under 1% elapsed (rendered as a dash)', () => {
    expect(paceRatio(50, 0.99)).toBeNull();
    expect(classifyPace(paceRatio(50, 0.99))).toBeNull();
    expect(paceRatio(2, 1)).toBe(2);
  });
  it('views a window: expected equals elapsed (linear pace)', () => {
    const view = viewWindow(fiveHour(30, 2.5 * HOUR), NOW);
    expect(view).toMatchObject({ usedPercent: 30, elapsedPercent: 50, expectedPercent: 50, pace: 'underutilizing' });
    expect(view.ratio).toBeCloseTo(0.6);
  });
});

describe('severity and bar tones', () => {
  const at = (used: number, elapsedShare: number) => viewWindow(fiveHour(used, (1 - elapsedShare) * 5 * HOUR), NOW);
  it('red at used >= 90 or over pace, orange at >= 75, green under pace, plain on track', () => {
    expect(severityOf(at(90, 0.95))).toBe('danger');
    expect(severityOf(at(40, 0.2))).toBe('danger');
    expect(severityOf(at(75, 0.8))).toBe('warn');
    expect(severityOf(at(10, 0.5))).toBe('ok');
    expect(severityOf(at(50, 0.5))).toBe('neutral');
    expect(severityOf(at(50, 0))).toBe('neutral');
  });
  it('bar: green <= 50, blue <= 75, orange <= 90, red above', () => {
    expect([50, 50.1, 75, 75.1, 90, 90.1].map(usedBarTone)).toEqual(['green', 'blue', 'blue', 'orange', 'orange', 'red']);
  });
});

describe('time formatting', () => {
  it('relative: days+hours, hours+minutes, minutes, due', () => {
    expect(relativeTime(NOW + 3 * 24 * HOUR + 4 * HOUR + 59_000, NOW)).toBe('in 3d 4h');
    expect(relativeTime(NOW + 2 * HOUR + 41 * 60_000, NOW)).toBe('in 2h 41m');
    expect(relativeTime(NOW + 12 * 60_000, NOW)).toBe('in 12m');
    expect(relativeTime(NOW + 30_000, NOW)).toBe('in under a minute');
    expect(relativeTime(NOW - 1, NOW)).toBe('due now');
    expect(relativeTime(NOW - 59_000, NOW)).toBe('due now');
  });
  it('relative: a reset a minute or more behind says how long ago it passed', () => {
    expect(relativeTime(NOW - 60_000, NOW)).toBe('passed 1m ago');
    expect(relativeTime(NOW - 3 * 24 * HOUR - 5 * 60_000, NOW)).toBe('passed 3d 0h ago');
    expect(relativeTime(NOW - 2 * HOUR - 41 * 60_000, NOW)).toBe('passed 2h 41m ago');
  });
  it('absolute: weekday, day, month, 24h time and zone, in the zone asked for', () => {
    expect(absoluteTime(NOW + 2 * HOUR + 41 * 60_000, 'UTC')).toBe('Thu 10 Sep 16:41 UTC');
    expect(absoluteTime(NOW, 'Asia/Tokyo')).toBe('Thu 10 Sep 23:00 GMT+9');
  });
});

describe('windows', () => {
  it('labels by duration', () => {
    expect([18_000, 604_800, 86_400 * 3, 7_200, 900, 45].map(labelForSeconds)).toEqual(['5-hour', '7-day', '3-day', '2-hour', '15-minute', '45-second']);
  });
  it('puts a weekly-only report in the Week column and leaves 5h empty', () => {
    const report: LimitReport = { row: 'Codex', windows: [{ label: '7-day', windowSeconds: 604_800, usedPercent: 17, resetsAt: NOW }] };
    expect(summaryColumns(report)).toEqual({ week: report.windows[0] });
  });
  it('never fills 5h for grok, and puts its credit window in Week whatever its period', () => {
    const daily: LimitWindow = { label: 'daily', windowSeconds: 86_400, usedPercent: 3, resetsAt: NOW };
    expect(summaryColumns({ row: 'Grok', windows: [daily] })).toEqual({ week: daily });
  });
  it('falls back to a monthly window for Week', () => {
    const monthly: LimitWindow = { label: 'monthly', windowSeconds: 31 * 86_400, usedPercent: 3, resetsAt: NOW };
    const fh = fiveHour(1, HOUR);
    expect(summaryColumns({ row: 'Kimi', windows: [fh, monthly] })).toEqual({ fiveHour: fh, week: monthly });
  });
});
