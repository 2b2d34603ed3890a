import { fitLine, lineWidth, onModal, seg, type Line, type Segment } from './line.js';
import type { Rect } from './layout.js';

/** `─ Title ─────` across `width` cells: a panel's title set into its top border. */
export const titledRule = (title: readonly Segment[], width: number, border: 'border' | 'borderFocus' | 'modalBorder' = 'border'): Segment[] => {
  if (title.length === 0) return [seg('─'.repeat(Math.max(0, width)), border)];
  const head = fitLine([seg('─ ', border), ...title, seg(' ', border)], Math.min(width, lineWidth(title) + 3));
  return [...head, seg('─'.repeat(Math.max(0, width - lineWidth(head))), border)];
};

/**
 * A window drawn over the panels: a titled border, `body` scrolled by `scroll`, a footer line
 * inside the border. Exactly `rect.height` rows of `rect.width` cells; the body is cut, never
 * wrapped here (the caller wraps to `rect.width - 4`).
 */
export const renderBox = (title: string, body: readonly Line[], rect: Rect, scroll: number, footer: string): Line[] => {
  const { width, height } = rect;
  const inner = width - 2;
  const row = (content: readonly Segment[]): Segment[] => [seg('│', 'modalBorder'), ...onModal(fitLine([seg(' ', 'modal'), ...content], inner, 'modal')), seg('│', 'modalBorder')];
  const room = Math.max(0, height - 3);
  const offset = Math.min(Math.max(0, scroll), Math.max(0, body.length - room));
  const lines: Line[] = [[seg('┌', 'modalBorder'), ...titledRule([seg(title, 'modalBorder')], inner, 'modalBorder'), seg('┐', 'modalBorder')]];
  for (let i = 0; i < room; i += 1) lines.push(row(body[offset + i] ?? []));
  const position = body.length > room ? `lines ${offset + 1}-${Math.min(body.length, offset + room)} of ${body.length} · ` : '';
  lines.push(row([seg(`${position}${footer}`, 'help')]));
  lines.push([seg(`└${'─'.repeat(Math.max(0, inner))}┘`, 'modalBorder')]);
  return lines.slice(0, height);
};

/** Rows a box needs around its body: the two borders and the footer. */
export const BOX_CHROME_ROWS = 3;
