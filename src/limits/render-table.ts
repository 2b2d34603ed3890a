import { makePalette, padVisible, visibleLength, type Palette } from './palette.js';
import { severityOf, viewWindow } from './pace.js';
import type { RenderOptions } from './render-options.js';
import { rowsOf } from './rows.js';
import type { LimitWindow, Outcomes } from './types.js';
import { ageText } from './time-format.js';
import { SESSION_FILE, splitBySource, summaryColumns } from './windows.js';

const HEADERS = ['Agent', '5h', 'Week (or Global)'] as const;

/** `29.0% used / 51.3% exp`, colored by severity; `--` when the agent has no such window. */
const summaryCell = (window: LimitWindow | undefined, now: number, palette: Palette): string => {
  if (!window) return '--';
  const view = viewWindow(window, now);
  return palette.severity(severityOf(view), `${view.usedPercent.toFixed(1)}% used / ${view.expectedPercent.toFixed(1)}% exp`);
};

const boxed = (cells: readonly (readonly string[])[], widths: readonly number[], palette: Palette): string[] => {
  const rule = (left: string, mid: string, right: string): string => `${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${right}`;
  const line = (row: readonly string[]): string => `│${row.map((cell, i) => ` ${padVisible(cell, widths[i] ?? 0)} `).join('│')}│`;
  const [header, ...body] = cells;
  return [rule('┌', '┬', '┐'), line((header ?? []).map(palette.bold)), rule('├', '┼', '┤'), ...body.map(line), rule('└', '┴', '┘')];
};

/** Narrow terminals: one block per row instead of a table that would wrap into noise. */
const stacked = (cells: readonly (readonly string[])[], palette: Palette): string[] =>
  cells.slice(1).flatMap(([agent = '', fiveHour = '', week = '']) => [palette.bold(agent), `  5h    ${fiveHour}`, `  Week  ${week}`]);

/**
 * The default summary of `agentwatch limits`: a bordered table of the agents that
 * answered, one row each (cursor two). Empty string when no agent answered.
 */
export const renderTable = (outcomes: Outcomes, options: RenderOptions): string => {
  const palette = makePalette(options.color);
  // A failed live answer still shows what the agent wrote itself (its error goes to stderr).
  const rows = rowsOf(outcomes).filter((row) => row.report);
  if (rows.length === 0) return '';
  const cells: string[][] = [
    [...HEADERS],
    ...rows.flatMap(({ row, report }) => {
      if (!report) return [];
      const { main, beside } = splitBySource(report.windows);
      const line = (label: string, windows: readonly LimitWindow[]): string[] => {
        const columns = summaryColumns({ ...report, windows });
        return [label, summaryCell(columns.fiveHour, options.now, palette), summaryCell(columns.week, options.now, palette)];
      };
      // A snapshot beside the live answer: its own indented line under the row, with its age.
      const at = beside[0]?.observedAt;
      return [line(row, main), ...(beside.length > 0 ? [line(`  ${SESSION_FILE}${at === undefined ? '' : `, ${ageText(at, options.now)}`}`, beside)] : [])];
    }),
  ];
  const widths = HEADERS.map((_, i) => Math.max(...cells.map((row) => visibleLength(row[i] ?? ''))));
  const tableWidth = widths.reduce((sum, w) => sum + w + 3, 1);
  const lines = tableWidth <= options.width ? boxed(cells, widths, palette) : stacked(cells, palette);
  return `${lines.join('\n')}\n`;
};
