import type { Line } from './line.js';
import type { Style, Theme } from './theme.js';

const ESC = '\u001b[';
const RESET = `${ESC}0m`;

/** SGR parameters of a style (256-color palette indices). Empty when the style sets nothing. */
const sgrParams = (style: Style): string[] => {
  const params: string[] = [];
  if (style.bold) params.push('1');
  if (style.dim) params.push('2');
  if (style.underline) params.push('4');
  if (style.inverse) params.push('7');
  if (style.fg !== undefined) params.push(`38;5;${style.fg}`);
  if (style.bg !== undefined) params.push(`48;5;${style.bg}`);
  return params;
};

/**
 * One row as the bytes to write: each run opens its own SGR and resets after, so a row is
 * self-contained and can be redrawn alone (the frame diff redraws only changed rows).
 */
export const encodeLine = (line: Line, theme: Theme): string => {
  let out = '';
  for (const segment of line) {
    const base = segment.style ? theme.styles[segment.style] : {};
    const own: Style = segment.onModal && base.bg === undefined && theme.styles.modal.bg !== undefined ? { ...base, bg: theme.styles.modal.bg } : base;
    const style: Style = segment.selected ? { ...own, ...theme.styles.selected, fg: own.fg ?? theme.styles.selected.fg } : own;
    const params = sgrParams(style);
    out += params.length > 0 ? `${ESC}${params.join(';')}m${segment.text}${RESET}` : segment.text;
  }
  return out;
};
