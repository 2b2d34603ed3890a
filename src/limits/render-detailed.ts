import { makePalette, type Palette } from './palette.js';
import { usedBarTone, viewWindow, type WindowView } from './pace.js';
import type { RenderOptions } from './render-options.js';
import { reportTitle } from './present-plan.js';
import { rowsOf } from './rows.js';
import { inSourceOrder } from './windows.js';
import { absoluteTime, ageText, relativeTime } from './time-format.js';
import type { LimitReport, Outcomes } from './types.js';

const LABEL_WIDTH = 9;

/** A bar of `width` cells, filled in proportion to `percent` (clamped to 0-100). */
const bar = (percent: number, width: number): { filled: string; empty: string } => {
  const cells = Math.round((Math.min(100, Math.max(0, percent)) / 100) * width);
  return { filled: '█'.repeat(cells), empty: '░'.repeat(width - cells) };
};

const barWidth = (width: number): number => Math.max(10, Math.min(30, width - 30));

const line = (label: string, value: string): string => `    ${label.padEnd(LABEL_WIDTH)}${value}`;

/** Word-wraps `text` to `width` columns, every line starting with `indent`. */
const wrap = (text: string, width: number, indent: string): string[] => {
  const room = Math.max(20, width - indent.length);
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current && current.length + 1 + word.length > room) {
      lines.push(`${indent}${current}`);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(`${indent}${current}`);
  return lines;
};

const percent = (value: number): string => `${value.toFixed(1)}%`.padStart(6);

const resetsLine = (view: WindowView, options: RenderOptions): string => {
  const { resetsAt } = view.window;
  if (resetsAt === null) return 'not started (the window opens with the first request)';
  return `${relativeTime(resetsAt, options.now)} (${absoluteTime(resetsAt, options.tz)})`;
};

const paceLine = (view: WindowView, palette: Palette): string => {
  if (view.ratio === null || view.pace === null) return palette.muted('-  (under 1% of the window has elapsed)');
  return `${palette.pace(view.pace, view.pace)}  ${view.ratio.toFixed(2)}x of expected ${view.expectedPercent.toFixed(1)}%`;
};

const windowBlock = (view: WindowView, options: RenderOptions, palette: Palette): string[] => {
  const width = barWidth(options.width);
  const used = bar(view.usedPercent, width);
  const elapsed = bar(view.elapsedPercent, width);
  const tone = usedBarTone(view.usedPercent);
  return [
    `  ${palette.bold(view.window.label)}`,
    line('Used', `${percent(view.usedPercent)}  ${palette.bar(tone, used.filled)}${palette.muted(used.empty)}`),
    line('Elapsed', `${percent(view.elapsedPercent)}  ${palette.muted(elapsed.filled)}${palette.muted(elapsed.empty)}`),
    line('Resets', resetsLine(view, options)),
    line('Pace', paceLine(view, palette)),
    ...(view.window.source ? wrap(`Source: ${sourceText(view, options.now)}`, options.width, '    ') : []),
  ];
};

/** `live`, or `session file, 3 min ago` for figures an agent wrote to disk. */
const sourceText = (view: WindowView, now: number): string => {
  const { source = '', observedAt } = view.window;
  return observedAt === undefined ? source : `${source}, ${ageText(observedAt, now)}`;
};

/** The report's note, then each different note of its windows (where a snapshot came from). */
const notesOf = (report: LimitReport): string[] => [...new Set([report.note, ...report.windows.map((w) => w.note)].filter((note): note is string => !!note))];

const reportBlock = (report: LimitReport, options: RenderOptions, palette: Palette): string[] => [
  palette.bold(reportTitle(report.row, report.plan)),
  ...inSourceOrder(report.windows).flatMap((window) => windowBlock(viewWindow(window, options.now), options, palette)),
  ...notesOf(report).flatMap((note) => wrap(`Note: ${note}`, options.width, '  ').map(palette.muted)),
];

/**
 * `agentwatch limits --detailed`: one block per summary row, one sub-block per
 * window with Used, Elapsed, Resets and Pace, then optional Source and Note lines.
 */
export const renderDetailed = (outcomes: Outcomes, options: RenderOptions): string => {
  const palette = makePalette(options.color);
  const blocks = rowsOf(outcomes)
    .filter((row) => row.report)
    .map((row) => reportBlock(row.report as LimitReport, options, palette).join('\n'));
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
};
