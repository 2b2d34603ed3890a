import { AGENT_PREFIX } from '../../core/agents.js';
import type { SessionSummary } from '../../core/session.js';
import { activityPerMinute, formatAge, sparkline, spinnerAt } from './format.js';
import { fitLine, lineWidth, markSelected, seg, type Line, type Segment } from './line.js';
import { displayName, type ListRow } from './model.js';
import { ellipsize, padStartTo } from './text.js';

/** Widest activity name ("compacting"), so badges line up. */
const BADGE_WIDTH = 10;

/** claude has no prefix; Claude Desktop sessions get `D` (AGENT_PREFIX note). */
export const agentPrefix = (summary: Pick<SessionSummary, 'agent' | 'source'>): string =>
  summary.agent === 'claude' && summary.source === 'desktop' ? 'D' : AGENT_PREFIX[summary.agent];

/** Minutes of history in the sparkline for a list this wide (none when it would crowd the name). */
export const sparkMinutes = (width: number): number => (width >= 70 ? 12 : width >= 48 ? 8 : 0);

/**
 * One list row: cursor, agent prefix, spinner while active, activity badge, name, age, sparkline.
 * Exactly `width` cells.
 */
export const renderListRow = (row: ListRow, width: number, now: number, selected: boolean): Segment[] => {
  const { summary } = row;
  const minutes = sparkMinutes(width);
  const spark = minutes > 0 ? sparkline(activityPerMinute(row.state, now, minutes)) : '';
  const head: Segment[] = [
    seg(selected ? '›' : ' ', 'cursor'),
    seg(agentPrefix(summary) || ' ', 'label'),
    seg(' '),
    seg(summary.is_active ? spinnerAt(now) : ' ', 'spinner'),
    seg(' '),
    seg(summary.activity.padEnd(BADGE_WIDTH), `act.${summary.activity}`),
    seg(' '),
  ];
  const tail: Segment[] = [
    seg(' '),
    seg(padStartTo(formatAge(row.state.lastActivityAt, now), 4), 'muted'),
    ...(minutes > 0 ? [seg(' '), seg(spark, 'spark')] : []),
  ];
  const nameWidth = Math.max(1, width - lineWidth(head) - lineWidth(tail));
  const name = fitLine([seg(ellipsize(displayName(summary), nameWidth), summary.custom_name ? 'value' : 'text')], nameWidth);
  const out = fitLine([...head, ...name, ...tail], width);
  return selected ? markSelected(out) : out;
};

/** The list panel: heading, then rows scrolled so the selection stays in view. */
export const renderList = (
  rows: readonly ListRow[],
  selectedIndex: number,
  size: { width: number; height: number },
  now: number,
  focused: boolean,
  heading: string,
  empty: readonly Line[],
): Line[] => {
  const out: Line[] = [fitLine([seg(heading, focused ? 'panelTitleFocus' : 'panelTitle')], size.width)];
  const visible = Math.max(0, size.height - 1);
  if (rows.length === 0) {
    for (let i = 0; i < visible; i += 1) out.push(fitLine(empty[i] ?? [], size.width));
    return out;
  }
  const offset = Math.min(Math.max(0, selectedIndex - Math.floor(visible / 2)), Math.max(0, rows.length - visible));
  for (let i = 0; i < visible; i += 1) {
    const row = rows[offset + i];
    out.push(row ? renderListRow(row, size.width, now, offset + i === selectedIndex) : fitLine([], size.width));
  }
  return out;
};
