import type { SessionDetail } from '../../core/session.js';
import { computeLayout, isTooSmall, MIN_SIZE, modalRect, type Size } from './layout.js';
import { fitLine, joinColumns, overlay, seg, type Line } from './line.js';
import type { ListCounts, ListRow } from './model.js';
import { renderHelp, renderTitle } from './render-chrome.js';
import { detailMaxScroll, renderDetail } from './render-detail.js';
import { limitsMaxScroll, renderLimitsModal } from './render-limits.js';
import { renderList } from './render-list.js';
import { selectedRowIndex, type ViewState } from './state.js';

/** Everything a frame shows. Built by the shell from the pipeline's state and the view state. */
export interface FrameInput {
  readonly view: ViewState;
  readonly rows: readonly ListRow[];
  readonly counts: ListCounts;
  /** The selected session's full record (toDetail with its worktree facts). */
  readonly detail?: SessionDetail;
  /** SessionsState.ready: every source finished its first discovery pass. */
  readonly ready: boolean;
  readonly diagnostics: number;
  readonly now: number;
  /** Where the sources looked, said when nothing is listed (PRODUCT.md 1). */
  readonly searched: readonly string[];
  /** Sessions outside the window (counted only when the list is empty, for the empty screen). */
  readonly olderSessions?: number;
}

const emptyMessage = (input: FrameInput, width: number): Line[] => {
  if (!input.ready) return [[seg('  Discovering sessions…', 'muted')]];
  const { view, counts } = input;
  if (counts.total > 0) {
    return [
      [seg(`  No session matches filter "${view.filter || 'all'}"${view.search ? ` and search "${view.search}"` : ''}.`, 'muted')],
      [seg('  f cycles the filter, esc clears the search.', 'muted')],
    ];
  }
  const older = input.olderSessions ?? 0;
  return [
    [seg(`  No sessions active in the last ${view.windowMinutes} minutes.`, 'muted')],
    older > 0 ? [seg(`  ${older} older session${older === 1 ? '' : 's'} outside the window: + widens it.`, 'muted')] : [seg('  + widens the window. A first look: agentwatch --demo', 'muted')],
    [seg('  Looked in:', 'muted')],
    // A long path keeps its end (the part that differs), with an ellipsis where it was cut.
    ...input.searched.map((where): Line => [seg(`    ${ellipsizeStart(where, width - 4)}`, 'muted')]),
  ];
};

const ellipsizeStart = (text: string, width: number): string => (text.length <= width || width < 2 ? text : `…${text.slice(text.length - width + 1)}`);

/**
 * The whole screen as `size.height` lines of exactly `size.width` cells, styled by role.
 * Pure: the same input and size always give the same lines (snapshot-tested).
 */
export const render = (input: FrameInput, size: Size): Line[] => {
  const { width, height } = size;
  if (isTooSmall(size)) {
    const lines: Line[] = Array.from({ length: Math.max(0, height) }, () => fitLine([], Math.max(0, width)));
    const text = `Terminal too small (${width}x${height}); need ${MIN_SIZE.width}x${MIN_SIZE.height}. q quits.`;
    if (height > 0) lines[0] = fitLine([seg(text, 'error')], width);
    return lines;
  }
  const { view, rows, now } = input;
  const layout = computeLayout(size);
  const index = selectedRowIndex(view, rows);
  const heading = ` Sessions${rows.length > 0 ? `  ${index + 1}/${rows.length}` : ''}`;
  const list = renderList(rows, index, layout.list, now, view.focus === 'list', heading, emptyMessage(input, layout.list.width));
  const detail = renderDetail(input.detail, layout.detail, now, view.focus === 'detail', view.detailScroll);

  const body: Line[] = [];
  if (layout.split === 'columns') {
    for (let i = 0; i < layout.list.height; i += 1) {
      body.push(joinColumns(joinColumns(list[i] ?? [], layout.list.width, [seg('│', 'border')]), layout.list.width + 1, detail[i] ?? []));
    }
  } else {
    body.push(...list);
    // The stacked detail panel's heading doubles as the divider.
    const [detailHeading = [], ...rest] = detail;
    body.push(fitLine([seg(' '), ...detailHeading.filter((s) => s.text.trim() !== ''), seg(' '), seg('─'.repeat(width), 'border')], width), ...rest);
  }

  let lines: Line[] = [
    renderTitle(view, input.counts, rows.length, input.ready, input.diagnostics, now, width),
    ...body.map((line) => fitLine(line, width)),
    renderHelp(view, now, width),
  ];
  if (view.limits) {
    const rect = modalRect(size);
    const modal = renderLimitsModal(view.limits, rect, now);
    lines = lines.map((line, y) => {
      const part = modal[y - rect.y];
      return part ? fitLine(overlay(line, rect.x, part), width) : line;
    });
  }
  return lines.slice(0, height);
};

/** Scroll bounds the reducer needs, from the same layout the frame uses. */
export const scrollBounds = (input: FrameInput, size: Size): { detailMaxScroll: number; limitsMaxScroll: number } => {
  if (isTooSmall(size)) return { detailMaxScroll: 0, limitsMaxScroll: 0 };
  const layout = computeLayout(size);
  return {
    detailMaxScroll: detailMaxScroll(input.detail, layout.detail, input.now),
    limitsMaxScroll: limitsMaxScroll(input.view.limits, modalRect(size), input.now),
  };
};
