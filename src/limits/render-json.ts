import { viewWindow } from './pace.js';
import { rowsOf } from './rows.js';
import { inSourceOrder } from './windows.js';
import type { LimitAgent } from '../core/agents.js';
import type { LimitRowLabel, Outcomes } from './types.js';
import type { PaceLabel } from './pace.js';

/** The `limits --json` document, stable for scripts and status bars (docs/limits.md). */
export interface LimitsJson {
  readonly generated_at: string;
  readonly rows: readonly {
    readonly row: LimitRowLabel;
    readonly agent: LimitAgent;
    readonly status: 'ok' | 'skipped' | 'failed';
    readonly error?: string;
    readonly plan?: string;
    readonly windows: readonly {
      readonly label: string;
      readonly window_seconds?: number;
      readonly used_percent: number;
      readonly elapsed_percent: number;
      readonly expected_percent: number;
      readonly resets_at: string | null;
      readonly pace: PaceLabel | null;
      readonly source?: string;
      readonly note?: string;
      /** When the agent wrote the figures to disk (windows read from its files). */
      readonly observed_at?: string;
    }[];
  }[];
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The JSON document as a value; `renderJson` prints it. Every requested agent has its rows. */
export const limitsJson = (outcomes: Outcomes, now: number): LimitsJson => ({
  generated_at: new Date(now).toISOString(),
  rows: rowsOf(outcomes).map((row) => ({
    row: row.row,
    agent: row.agent,
    status: row.status,
    ...(row.error !== undefined ? { error: row.error } : {}),
    ...(row.report?.plan ? { plan: row.report.plan } : {}),
    windows: inSourceOrder(row.report?.windows ?? []).map((window) => {
      const view = viewWindow(window, now);
      return {
        label: window.label,
        ...(window.windowSeconds !== undefined ? { window_seconds: window.windowSeconds } : {}),
        used_percent: round2(view.usedPercent),
        elapsed_percent: round2(view.elapsedPercent),
        expected_percent: round2(view.expectedPercent),
        resets_at: window.resetsAt === null ? null : new Date(window.resetsAt).toISOString(),
        pace: view.pace,
        ...(window.source ? { source: window.source } : {}),
        ...(window.note || row.report?.note ? { note: window.note ?? row.report?.note } : {}),
        ...(window.observedAt !== undefined ? { observed_at: new Date(window.observedAt).toISOString() } : {}),
      };
    }),
  })),
});

export const renderJson = (outcomes: Outcomes, now: number): string => `${JSON.stringify(limitsJson(outcomes, now), null, 2)}\n`;
