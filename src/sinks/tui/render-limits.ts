import { spinnerAt } from './format.js';
import { fitLine, seg, type Line, type Segment } from './line.js';
import { modalMaxContentWidth, modalRect, type Rect, type Size } from './layout.js';
import type { LimitsView } from './state.js';
import { displayWidth, wrapText } from './text.js';

/** Rows of the modal that are not content: borders, tabs, the rule under them, the footer. */
const CHROME_ROWS = 5;

const rawContent = (limits: LimitsView, now: number): { lines: readonly string[]; style: 'modal' | 'error' } => {
  if (limits.phase === 'failed') return { lines: ['Could not read the limits:', '', limits.error ?? 'unknown error', '', 'Press r to try again.'], style: 'error' };
  if (limits.phase === 'loading' && !limits.text) return { lines: [`${spinnerAt(now)} Reading limits…`], style: 'modal' };
  const text = limits.text;
  if (!text) return { lines: [], style: 'modal' };
  return { lines: limits.tab === 'summary' ? text.summary : text.detailed, style: 'modal' };
};

/** The content lines wrapped to the box (one space of padding each side inside the border). */
const contentOf = (limits: LimitsView, now: number, rect: Rect): { lines: readonly string[]; style: 'modal' | 'error' } => {
  const { lines, style } = rawContent(limits, now);
  return { lines: lines.flatMap((line) => wrapText(line, rect.width - 4)), style };
};

const FOOTER = 'r re-reads · never polled';
/** Room for the scroll position and the re-read spinner before the footer ("⠋ 100-120/240 · "). */
const FOOTER_EXTRA = 18;
const TABS_WIDTH = 24;

/**
 * The modal's box, sized to its content: as wide as the widest line of either tab (so switching
 * tabs does not move the box sideways), as tall as the current tab, within the screen. The report
 * is rendered for modalMaxContentWidth, so its lines fit and are never wrapped a second time.
 */
export const limitsRect = (limits: LimitsView, size: Size, now: number): Rect => {
  const max = modalMaxContentWidth(size);
  const wrapped = (lines: readonly string[]): string[] => lines.flatMap((line) => wrapText(line, max));
  const both = limits.text ? [...wrapped(limits.text.summary), ...wrapped(limits.text.detailed)] : wrapped(rawContent(limits, now).lines);
  const width = Math.max(TABS_WIDTH, displayWidth(FOOTER) + FOOTER_EXTRA, ...both.map(displayWidth));
  const height = wrapped(rawContent(limits, now).lines).length + CHROME_ROWS;
  return modalRect(size, { width, height });
};

/** How far the current tab can scroll inside a modal of this size. */
export const limitsMaxScroll = (limits: LimitsView | undefined, rect: Rect, now: number): number =>
  limits ? Math.max(0, contentOf(limits, now, rect).lines.length - (rect.height - CHROME_ROWS)) : 0;

const row = (inner: readonly Segment[], width: number): Segment[] => [
  seg('│', 'modalBorder'),
  ...fitLine(inner, width - 2, 'modal'),
  seg('│', 'modalBorder'),
];

/**
 * The limits modal (docs/tui.md): Summary and Detailed tabs, the content scrolled inside the box,
 * a footer saying whether the figures are being re-read. `rect.height` rows of `rect.width` cells.
 */
export const renderLimitsModal = (limits: LimitsView, rect: Rect, now: number): Line[] => {
  const { width, height } = rect;
  const title = ' Limits ';
  const top: Segment[] = [seg(`┌─${title}${'─'.repeat(Math.max(0, width - 3 - title.length))}┐`, 'modalBorder')];
  const tab = (name: string, active: boolean): Segment => seg(` ${name} `, active ? 'tabActive' : 'tabInactive');
  const tabs = row([seg(' ', 'modal'), tab('Summary', limits.tab === 'summary'), seg(' ', 'modal'), tab('Detailed', limits.tab === 'detailed')], width);
  const rule = row([seg('─'.repeat(width - 2), 'modalBorder')], width);
  const { lines, style } = contentOf(limits, now, rect);
  const room = Math.max(0, height - CHROME_ROWS);
  const offset = Math.min(limits.scroll, Math.max(0, lines.length - room));
  const body: Line[] = [];
  for (let i = 0; i < room; i += 1) {
    const text = lines[offset + i];
    body.push(row(text === undefined ? [] : [seg(' ', 'modal'), seg(text, style)], width));
  }
  const position = lines.length > room ? `${offset + 1}-${Math.min(lines.length, offset + room)}/${lines.length} · ` : '';
  const status = limits.phase === 'loading' && limits.text ? `${spinnerAt(now)} ` : '';
  const footer = row([seg(` ${status}${position}${FOOTER}`, 'modal')], width);
  const bottom: Segment[] = [seg(`└${'─'.repeat(Math.max(0, width - 2))}┘`, 'modalBorder')];
  return [top, tabs, rule, ...body, footer, bottom].slice(0, height);
};
