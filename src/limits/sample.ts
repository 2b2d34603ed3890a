import { LIMIT_AGENTS, type LimitAgent } from '../core/agents.js';
import { FIVE_HOURS, ONE_WEEK } from './windows.js';
import type { LimitReport, Outcomes } from './types.js';

/**
 * Generated sample windows for every limits agent (`--demo`): what the table looks like without
 * any login, placed relative to `now` so every pace label shows. Marked as sample wherever shown
 * (the note of each row, `"sample": true` in JSON): these are never anyone's usage.
 */
export const SAMPLE_NOTE = 'Sample data (--demo): generated, not your usage.';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MONTH_DAYS = 30;

const window = (label: string, seconds: number, used: number, elapsedShare: number, now: number, source?: string) => {
  const length = seconds * 1000;
  const resetsAt = now + Math.round(length * (1 - elapsedShare));
  return { label, windowSeconds: seconds, usedPercent: used, resetsAt, ...(source ? { source } : {}) };
};

const REPORTS: Readonly<Record<LimitAgent, (now: number) => readonly LimitReport[]>> = {
  // On track in the 5-hour window, ahead of pace for the week.
  claude: (now) => [{ row: 'Claude', plan: 'Max (sample)', windows: [window('5-hour', FIVE_HOURS, 38, 0.4, now), window('7-day', ONE_WEEK, 71, 0.55, now)], note: SAMPLE_NOTE }],
  // Well under pace.
  codex: (now) => [{ row: 'Codex', plan: 'Plus (sample)', windows: [window('5-hour', FIVE_HOURS, 12, 0.7, now), window('7-day', ONE_WEEK, 20, 0.6, now)], note: SAMPLE_NOTE }],
  grok: (now) => [{ row: 'Grok', windows: [window('monthly', MONTH_DAYS * 86_400, 46, 0.5, now, '$23.00 of $50.00 credits used')], note: SAMPLE_NOTE }],
  kimi: (now) => [
    { row: 'Kimi', windows: [window('5-hour', FIVE_HOURS, 55, 0.5, now, '110 of 200 requests used'), window('weekly', ONE_WEEK, 30, 0.4, now, '600 of 2000 requests used')], note: SAMPLE_NOTE },
  ],
  cursor: (now) => [
    { row: 'Cursor Models', plan: 'Pro (sample)', windows: [{ ...window('monthly', MONTH_DAYS * 86_400, 64, 0.5, now), startsAt: now - 15 * DAY, resetsAt: now + 15 * DAY }], note: SAMPLE_NOTE },
    // Both rows carry the plan, as Cursor's own report gives it to both.
    { row: 'Cursor API', plan: 'Pro (sample)', windows: [{ ...window('monthly', MONTH_DAYS * 86_400, 8, 0.5, now), startsAt: now - 15 * DAY, resetsAt: now + 15 * DAY }], note: SAMPLE_NOTE },
  ],
};

/** Sample outcomes for `agents` (all five by default), every one `ok`. */
export const sampleOutcomes = (now: number, agents: readonly LimitAgent[] = LIMIT_AGENTS): Outcomes =>
  Object.fromEntries(agents.map((agent) => [agent, { kind: 'ok', agent, reports: REPORTS[agent](now) }]));
