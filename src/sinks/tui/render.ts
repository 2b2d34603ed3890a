import type { HistoryProgress } from '../../core/contracts.js';
import type { SessionDetail } from '../../core/session.js';
import { BOX_CHROME_ROWS, renderBox, titledRule } from './box.js';
import { computeLayout, isTooSmall, listBody, MIN_SIZE, modalRect, type Layout, type Rect, type Size } from './layout.js';
import { fitLine, overlay, seg, type Line, type Segment } from './line.js';
import type { ListCounts, ListRow } from './model.js';
import { renderHelp, renderStatus, renderTitle } from './render-chrome.js';
import { detailMaxScroll, renderDetail } from './render-detail.js';
import { helpLines } from './render-help.js';
import { limitsMaxScroll, limitsRect, renderLimitsModal } from './render-limits.js';
import { keepInView, renderList } from './render-list.js';
import { selectedRowIndex, WINDOW_MAX, type ViewState } from './state.js';
import { displayWidth, ellipsizeStart, wrapText } from './text.js';

/** Everything a frame shows. Built by the shell from the pipeline's state and the view state. */
export interface FrameInput {
  readonly view: ViewState;
  readonly rows: readonly ListRow[];
  readonly counts: ListCounts;
  /** The selected session's full record (toDetail with its worktree facts). */
  readonly detail?: SessionDetail;
  /** SessionsState.ready: every source finished its first discovery pass. */
  readonly ready: boolean;
  /** SessionsState.history while not ready: how much of the history the first pass has read. */
  readonly history?: HistoryProgress;
  readonly diagnostics: number;
  readonly now: number;
  /** Where the sources looked, said when nothing is listed (an empty screen says where it looked). */
  readonly searched: readonly string[];
  /** Sessions outside the window (counted only when the list is empty, for the empty screen). */
  readonly olderSessions?: number;
  /** Warnings written while the TUI runs, oldest first (the status line and the `?` overlay show them). */
  readonly warnings?: readonly string[];
  /** Stores running without their disk now, in a few words each: the status line says so until they recover. */
  readonly degraded?: readonly string[];
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const windowWords = (minutes: number): string => (minutes % 60 === 0 ? plural(minutes / 60, 'hour') : plural(minutes, 'minute'));

const emptyMessage = (input: FrameInput, width: number): Line[] => {
  if (!input.ready) return [[seg(' Discovering sessions…', 'muted')]];
  const { view, counts } = input;
  if (counts.total > 0) {
    return [
      [seg(` No session matches filter "${view.filter || 'all'}"${view.search ? ` and search "${view.search}"` : ''}.`, 'muted')],
      [seg(' f cycles the filter, esc clears the search.', 'muted')],
    ];
  }
  const older = input.olderSessions ?? 0;
  const next: Line[] =
    older > 0
      ? [
          [seg(` ${plural(older, 'older session')} outside the window: + widens it (up to ${WINDOW_MAX / 60} hours),`, 'muted')],
          [seg(' agentwatch sessions --all lists every age.', 'muted')],
        ]
      : [[seg(' None older either. To see agentwatch at work: ', 'muted'), seg('agentwatch --demo', 'key')]];
  return [
    [seg(` No sessions active in the last ${windowWords(view.windowMinutes)}.`, 'text')],
    ...next,
    [],
    [seg(' Looked in:', 'muted')],
    // A long path keeps its end (the part that differs), with an ellipsis where it was cut.
    ...input.searched.map((where): Line => [seg(`   ${ellipsizeStart(where, width - 4)}`, 'muted')]),
  ];
};

const hasStatus = (input: Pick<FrameInput, 'warnings' | 'diagnostics' | 'degraded'>): boolean =>
  (input.warnings?.length ?? 0) > 0 || input.diagnostics > 0 || (input.degraded?.length ?? 0) > 0;

/** The frame around both panels: titled top border(s), the side rules, the bottom border. */
const framePanels = (layout: Layout, listTitle: Segment[], list: readonly Line[], detailTitle: Segment[], detail: readonly Line[], focus: ViewState['focus']): Line[] => {
  const listRule = focus === 'list' ? 'borderFocus' : 'border';
  const detailRule = focus === 'detail' ? 'borderFocus' : 'border';
  const side = seg('│', 'border');
  const out: Line[] = [];
  if (layout.split === 'columns') {
    out.push([seg('┌', 'border'), ...titledRule(listTitle, layout.list.width, listRule), seg('┬', 'border'), ...titledRule(detailTitle, layout.detail.width, detailRule), seg('┐', 'border')]);
    for (let i = 0; i < layout.list.height; i += 1) {
      out.push([side, ...fitLine(list[i] ?? [], layout.list.width), side, ...fitLine(detail[i] ?? [], layout.detail.width), side]);
    }
    out.push([seg(`└${'─'.repeat(layout.list.width)}┴${'─'.repeat(layout.detail.width)}┘`, 'border')]);
    return out;
  }
  out.push([seg('┌', 'border'), ...titledRule(listTitle, layout.list.width, listRule), seg('┐', 'border')]);
  for (let i = 0; i < layout.list.height; i += 1) out.push([side, ...fitLine(list[i] ?? [], layout.list.width), side]);
  out.push([seg('├', 'border'), ...titledRule(detailTitle, layout.detail.width, detailRule), seg('┤', 'border')]);
  for (let i = 0; i < layout.detail.height; i += 1) out.push([side, ...fitLine(detail[i] ?? [], layout.detail.width), side]);
  out.push([seg(`└${'─'.repeat(layout.list.width)}┘`, 'border')]);
  return out;
};

/**
 * The notice shown instead of the panels below MIN_SIZE, word-wrapped over the rows there are:
 * the longest wording that fits without cutting a word, down to the bare size needed (`40x12`),
 * which is always said while it fits at all.
 */
export const tooSmallLines = (size: Size): string[] => {
  const { width, height } = size;
  if (width <= 0 || height <= 0) return [];
  const need = `${MIN_SIZE.width}x${MIN_SIZE.height}`;
  const wordings = [
    `Terminal too small (${width}x${height}); need ${need}. q quits.`,
    `Too small (${width}x${height}); need ${need}. q quits.`,
    `Too small: need ${need}. q quits.`,
    `Too small: need ${need}`,
    `need ${need}`,
    need,
  ];
  const fits = (text: string): boolean => text.split(' ').every((word) => displayWidth(word) <= width) && wrapText(text, width).length <= height;
  return wrapText(wordings.find(fits) ?? need, width).slice(0, height);
};

/** The `?` overlay's box and lines at this size. */
const helpBox = (input: FrameInput, size: Size): { rect: Rect; lines: Line[] } => {
  const contentWidth = Math.max(20, Math.min(size.width - 8, 92));
  const lines = helpLines({ sort: input.view.sort, warnings: input.warnings ?? [], diagnostics: input.diagnostics }, contentWidth);
  return { rect: modalRect(size, { width: contentWidth, height: lines.length + BOX_CHROME_ROWS }), lines };
};

/**
 * The whole screen as `size.height` lines of exactly `size.width` cells, styled by role.
 * Pure: the same input and size always give the same lines (snapshot-tested).
 */
export const render = (input: FrameInput, size: Size): Line[] => {
  const { width, height } = size;
  if (isTooSmall(size)) {
    const lines: Line[] = Array.from({ length: Math.max(0, height) }, () => fitLine([], Math.max(0, width)));
    tooSmallLines(size).forEach((text, y) => (lines[y] = fitLine([seg(text, 'error')], width)));
    return lines;
  }
  const { view, rows, now } = input;
  const layout = computeLayout(size);
  const index = selectedRowIndex(view, rows);
  const status = hasStatus(input) ? renderStatus(input.warnings ?? [], input.diagnostics, layout.list.width, input.degraded) : undefined;
  const { visible } = listBody(layout, status !== undefined);
  const offset = keepInView(view.listOffset, index, visible, rows.length);
  const list = renderList(rows, index, offset, layout.list, now, status, emptyMessage(input, layout.list.width));
  const detail = renderDetail(input.detail, layout.detail, now, view.detailScroll);
  const listTitle = [seg(`Sessions${rows.length > 0 ? ` ${index + 1}/${rows.length}` : ''}`, view.focus === 'list' ? 'panelTitleFocus' : 'panelTitle')];
  const detailTitle = [seg(detail.title, view.focus === 'detail' ? 'panelTitleFocus' : 'panelTitle')];

  let lines: Line[] = [
    renderTitle(view, input.counts, rows.length, input.ready, now, width, input.history),
    ...framePanels(layout, listTitle, list, detailTitle, detail.lines, view.focus).map((line) => fitLine(line, width)),
    renderHelp(view, now, width),
  ];
  const modal = view.help ? helpModal(input, size) : view.limits ? { rect: limitsRect(view.limits, size, now), lines: renderLimitsModal(view.limits, limitsRect(view.limits, size, now), now) } : undefined;
  if (modal) {
    lines = lines.map((line, y) => {
      const part = modal.lines[y - modal.rect.y];
      return part ? fitLine(overlay(line, modal.rect.x, part), width) : line;
    });
  }
  return lines.slice(0, height);
};

const helpModal = (input: FrameInput, size: Size): { rect: Rect; lines: Line[] } => {
  const { rect, lines } = helpBox(input, size);
  return { rect, lines: renderBox('Help: keys, agents, warnings', lines, rect, input.view.help?.scroll ?? 0, 'j/k scroll · esc or ? closes') };
};

/** The open window's box (help or limits), for the mouse. */
export const openModalRect = (input: FrameInput, size: Size): Rect | undefined =>
  isTooSmall(size) ? undefined : input.view.help ? helpBox(input, size).rect : input.view.limits ? limitsRect(input.view.limits, size, input.now) : undefined;

/** Whether the list panel opens with the status line (the mouse needs to know where rows start). */
export const listHasStatus = hasStatus;

/** What the reducer needs from the layout: scroll bounds and how many list rows show. */
export const scrollBounds = (input: FrameInput, size: Size): { detailMaxScroll: number; limitsMaxScroll: number; listVisible: number; helpMaxScroll: number } => {
  if (isTooSmall(size)) return { detailMaxScroll: 0, limitsMaxScroll: 0, listVisible: 1, helpMaxScroll: 0 };
  const layout = computeLayout(size);
  const help = input.view.help ? helpBox(input, size) : undefined;
  return {
    detailMaxScroll: detailMaxScroll(input.detail, layout.detail, input.now),
    limitsMaxScroll: input.view.limits ? limitsMaxScroll(input.view.limits, limitsRect(input.view.limits, size, input.now), input.now) : 0,
    listVisible: listBody(layout, hasStatus(input)).visible,
    helpMaxScroll: help ? Math.max(0, help.lines.length - (help.rect.height - BOX_CHROME_ROWS)) : 0,
  };
};
