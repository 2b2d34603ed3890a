import { agentColumnText, agentGlyph } from './agent-glyph.js';
import { ACTIVITY_WIDTH, MARKER_WIDTH, planColumns, shortModel, type Column, type ColumnPlan } from './columns.js';
import { activityText } from '../../core/activity.js';
import { activityPerMinute, formatAge, formatCost, sparkline, spinnerAt } from './format.js';
import { fitLine, markSelected, seg, type Line, type Segment } from './line.js';
import { displayNameOf, totalTokens, type ListRow } from './model.js';
import { ellipsize, padEndTo, padStartTo } from './text.js';
import type { StyleName } from './theme.js';

const cell = (text: string, column: Column, style?: StyleName): Segment => {
  const cut = ellipsize(text, column.width);
  return seg(column.align === 'right' ? padStartTo(cut, column.width) : padEndTo(cut, column.width), style);
};

/**
 * The name column: the session's display name (the same as the detail panel's) beside the project column; a
 * prompt standing in for a title is muted. Without the project column (a narrow list) it is the
 * user's name, else the project's short name: the one column left says where the session works.
 */
const nameCell = (row: ListRow, column: Column, projectShown: boolean): Segment => {
  const { summary } = row;
  if (!projectShown) return cell(summary.custom_name || summary.short_name || summary.agent_name || summary.session_id, column, summary.custom_name ? 'value' : 'text');
  const name = displayNameOf(summary);
  return cell(name.text, column, name.source === 'custom' ? 'value' : name.source === 'prompt' ? 'muted' : 'text');
};

const rowCell = (row: ListRow, column: Column, plan: ColumnPlan, now: number): Segment[] => {
  const { summary } = row;
  switch (column.id) {
    case 'agent':
      return [cell(plan.agentNames ? agentColumnText(summary) : agentGlyph(summary), column, `agent.${summary.agent}`)];
    case 'activity':
      return [seg(summary.is_active ? spinnerAt(now) : ' ', 'spinner'), seg(' '), seg(activityText(summary, now).padEnd(ACTIVITY_WIDTH - 2), `act.${summary.activity}`)];
    case 'name':
      return [nameCell(row, column, plan.columns.some((c) => c.id === 'project'))];
    case 'project':
      return [cell(summary.short_name, column, 'value')];
    case 'model':
      return [cell(shortModel(summary.model), column, 'label')];
    case 'cost':
      return [cell(formatCost(summary.cost_usd, totalTokens(row.state), summary.cost_source) ?? '', column, 'value')];
    case 'age':
      return [cell(formatAge(row.state.lastActivityAt, now), column, 'muted')];
    case 'spark':
      return [cell(sparkline(activityPerMinute(row.state, now, plan.sparkMinutes)), column, 'spark')];
  }
};

const joinCells = (cells: readonly (readonly Segment[])[]): Segment[] => cells.flatMap((c, i) => (i === 0 ? [...c] : [seg(' '), ...c]));

/** One session row: marker, then the plan's columns. Exactly `width` cells. */
const renderListRow = (row: ListRow, plan: ColumnPlan, width: number, now: number, selected: boolean): Segment[] => {
  const out = fitLine([seg(selected ? '›' : ' ', 'cursor'), ...joinCells(plan.columns.map((column) => rowCell(row, column, plan, now)))], width);
  return selected ? markSelected(out) : out;
};

/** The column headers, aligned with the rows. */
const renderHeader = (plan: ColumnPlan, width: number): Segment[] =>
  fitLine([seg(' '.repeat(MARKER_WIDTH)), ...joinCells(plan.columns.map((column) => [cell(column.header, column, 'header')]))], width);

/**
 * The list panel inside its borders: the status line when there is one, the column headers, then
 * the rows from `offset` (the shell keeps the selection in view). `empty` replaces the rows when
 * nothing is listed.
 */
export const renderList = (
  rows: readonly ListRow[],
  selectedIndex: number,
  offset: number,
  size: { width: number; height: number },
  now: number,
  status: Line | undefined,
  empty: readonly Line[],
): Line[] => {
  const plan = planColumns(size.width);
  const out: Line[] = [];
  if (status) out.push(fitLine(status, size.width));
  if (rows.length === 0) {
    // No headers over an empty list: the message starts where they would be.
    for (let i = out.length; i < size.height; i += 1) out.push(fitLine(empty[i - (status ? 1 : 0)] ?? [], size.width));
    return out;
  }
  out.push(renderHeader(plan, size.width));
  const visible = Math.max(0, size.height - out.length);
  for (let i = 0; i < visible; i += 1) {
    const row = rows[offset + i];
    out.push(row ? renderListRow(row, plan, size.width, now, offset + i === selectedIndex) : fitLine([], size.width));
  }
  return out;
};

/** The first row to show so the selection is in view, moving as little as possible from `offset`. */
export const keepInView = (offset: number, selectedIndex: number, visible: number, count: number): number => {
  if (visible <= 0 || count <= 0) return 0;
  const max = Math.max(0, count - visible);
  let next = Math.min(Math.max(0, offset), max);
  if (selectedIndex >= 0 && selectedIndex < next) next = selectedIndex;
  if (selectedIndex >= next + visible) next = selectedIndex - visible + 1;
  return Math.min(Math.max(0, next), max);
};
