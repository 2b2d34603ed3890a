import type { StyleName } from './theme.js';
import { charWidth, displayWidth, sanitize } from './text.js';

/**
 * A screen row as styled text runs. Render functions build these; `encode.ts` turns them into
 * escape sequences with a theme, `toPlain` into text for snapshots.
 */
export interface Segment {
  readonly text: string;
  readonly style?: StyleName;
  /** Drawn with the theme's `selected` background over its own style. */
  readonly selected?: boolean;
  /** Inside a window drawn over the panels: the `modal` background where its own style has none. */
  readonly onModal?: boolean;
}

export type Line = readonly Segment[];

export const seg = (text: string, style?: StyleName): Segment => (style ? { text: sanitize(text), style } : { text: sanitize(text) });

export const lineWidth = (line: Line): number => line.reduce((sum, s) => sum + displayWidth(s.text), 0);

export const toPlain = (line: Line): string => line.map((s) => s.text).join('');

/**
 * The cells [start, end) of a line. A wide character cut by either edge becomes a space, so the
 * result is exactly `end - start` cells when the line is long enough.
 */
export const sliceLine = (line: Line, start: number, end: number): Segment[] => {
  const out: Segment[] = [];
  let col = 0;
  for (const s of line) {
    let text = '';
    for (const ch of s.text) {
      const w = charWidth(ch.codePointAt(0) ?? 0);
      const from = col;
      col += w;
      if (w === 0) {
        if (from > start && from <= end && text !== '') text += ch;
        continue;
      }
      if (from >= start && col <= end) text += ch;
      else if (from < end && col > start) text += ' '.repeat(Math.min(col, end) - Math.max(from, start));
    }
    if (text !== '') out.push({ ...s, text });
    if (col >= end) break;
  }
  return out;
};

/** Exactly `width` cells: cut, or padded with a run in `padStyle`. */
export const fitLine = (line: Line, width: number, padStyle?: StyleName): Segment[] => {
  const cut = lineWidth(line) > width ? sliceLine(line, 0, width) : [...line];
  const gap = width - lineWidth(cut);
  if (gap > 0) cut.push(padStyle ? { text: ' '.repeat(gap), style: padStyle } : { text: ' '.repeat(gap) });
  return cut;
};

/**
 * Exactly `width` cells like `fitLine`, but a line that does not fit ends with an ellipsis in
 * the style of the text it cuts, so a cut never reads as the whole text.
 */
export const clipLine = (line: Line, width: number, padStyle?: StyleName): Segment[] => {
  if (width <= 0 || lineWidth(line) <= width) return fitLine(line, width, padStyle);
  const cutAt = sliceLine(line, width - 1, width)[0];
  return [...sliceLine(line, 0, width - 1), { ...cutAt, text: '…' }];
};

/** `part` drawn over `base` from column `x` (modal boxes over the panels). */
export const overlay = (base: Line, x: number, part: Line): Segment[] => {
  const partWidth = lineWidth(part);
  const baseWidth = lineWidth(base);
  return [...sliceLine(fitLine(base, Math.max(baseWidth, x)), 0, x), ...part, ...sliceLine(base, x + partWidth, Math.max(baseWidth, x + partWidth))];
};

/** Every segment marked selected (the highlighted list row). */
export const markSelected = (line: Line): Segment[] => line.map((s) => ({ ...s, selected: true }));

/** Every segment drawn on a window's background (see Segment.onModal). */
export const onModal = (line: Line): Segment[] => line.map((s) => ({ ...s, onModal: true }));
