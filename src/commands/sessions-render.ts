import { createColors } from 'picocolors';
import type { Activity } from '../core/activity.js';
import { AGENT_LABEL } from '../sources/agents.js';
import type { SessionSummary } from '../core/session.js';
import { timeOf } from '../core/time.js';

/** "12s ago", "5m ago", "3h ago", "4d ago"; "-" when unknown. */
export const relativeTime = (iso: string, now: number): string => {
  const at = timeOf(iso);
  if (at === 0) return '-';
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
};

const NAME_MAX = 40;
const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

type Paint = (text: string) => string;
const paintFor = (activity: Activity, c: ReturnType<typeof createColors>): Paint => {
  if (activity === 'idle') return c.dim;
  if (activity === 'waiting') return c.yellow;
  if (activity === 'compacting') return c.magenta;
  return c.green;
};

/**
 * The human table of `agentwatch sessions`: agent, state, project, name (the display name every
 * interface shows), last activity. Pure: `now` and color are inputs.
 */
export const renderSessionsTable = (rows: readonly SessionSummary[], options: { readonly now: number; readonly color: boolean }): string => {
  const c = createColors(options.color);
  const header = ['AGENT', 'STATE', 'PROJECT', 'NAME', 'LAST ACTIVITY'];
  const cells = rows.map((row) => [
    AGENT_LABEL[row.agent],
    row.activity,
    row.short_name || row.cwd || '-',
    cut(row.display_name || '-', NAME_MAX),
    relativeTime(row.last_activity, options.now),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => (line[i] ?? '').length)));
  const pad = (line: readonly string[]): string[] => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)));
  const lines = [c.bold(pad(header).join('  ').trimEnd())];
  cells.forEach((line, index) => {
    const padded = pad(line);
    const activity = rows[index]?.activity ?? 'idle';
    padded[1] = paintFor(activity, c)(padded[1] ?? '');
    lines.push(padded.join('  ').trimEnd());
  });
  return `${lines.join('\n')}\n`;
};
