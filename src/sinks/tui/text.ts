import termkit from 'terminal-kit';

/**
 * Terminal cell widths of strings, pure (no terminal is touched). Covers what session names and
 * paths realistically contain: ASCII, accents (combining marks take no cell), CJK and emoji (two
 * cells), control characters (dropped). The wide and zero-width tables are terminal-kit's.
 */

/** Cells one code point occupies: 0 for controls, combining marks and joiners, 2 for wide. */
export const charWidth = (cp: number): 0 | 1 | 2 => {
  // Fast path: printable ASCII, the bulk of every frame.
  if (cp >= 0x20 && cp < 0x7f) return 1;
  // The library counts these as one cell each; a terminal draws nothing for them.
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x200b && cp <= 0x200f)) return 0;
  const width = termkit.stringWidth(String.fromCodePoint(cp));
  return width === 2 ? 2 : width === 0 ? 0 : 1;
};

export const displayWidth = (text: string): number => {
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += charWidth(ch.codePointAt(0) ?? 0);
  return width;
};

/** Controls (newlines, tabs, escapes) would move the cursor: a transcript's text is shown on one line. */
export const sanitize = (text: string): string =>
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  text.replace(/[\t\n\r]+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

/**
 * The longest prefix of `text` that fits `width` cells. A wide character that would straddle the
 * edge is left out (the caller pads), so a row never grows past the screen.
 */
const takeWidth = (text: string, width: number): { text: string; width: number } => {
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch.codePointAt(0) ?? 0);
    if (used + w > width) break;
    out += ch;
    used += w;
  }
  return { text: out, width: used };
};

/** Cut to `width` cells, ending in `…` when something was cut. */
export const ellipsize = (text: string, width: number): string => {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  return `${takeWidth(text, width - 1).text}…`;
};

/** Cut from the left (`…/acme/api`): the end of a path is the part that identifies it. */
export const ellipsizeStart = (text: string, width: number): string => {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const chars = [...text];
  let out = '';
  let used = 0;
  for (let i = chars.length - 1; i >= 0; i -= 1) {
    const ch = chars[i] ?? '';
    const w = charWidth(ch.codePointAt(0) ?? 0);
    if (used + w > width - 1) break;
    out = ch + out;
    used += w;
  }
  return `…${out}`;
};

export const padEndTo = (text: string, width: number): string => {
  const gap = width - displayWidth(text);
  return gap > 0 ? text + ' '.repeat(gap) : text;
};

export const padStartTo = (text: string, width: number): string => {
  const gap = width - displayWidth(text);
  return gap > 0 ? ' '.repeat(gap) + text : text;
};

/**
 * Word-wrap to `width` cells; a word longer than a line is broken. Leading indentation of the
 * first line is kept on continuation lines, so wrapped report lines stay aligned.
 */
export const wrapText = (text: string, width: number): string[] => {
  if (width <= 0) return [text];
  if (displayWidth(text) <= width) return [text];
  const indent = /^\s*/.exec(text)?.[0] ?? '';
  const hang = displayWidth(indent) < width / 2 ? indent : '';
  const lines: string[] = [];
  let current = indent;
  for (const word of text.slice(indent.length).split(/\s+/).filter(Boolean)) {
    let rest = word;
    const gap = current.trim() === '' ? '' : ' ';
    if (displayWidth(current + gap + rest) <= width) {
      current += gap + rest;
      continue;
    }
    if (current.trim() !== '') lines.push(current);
    current = hang;
    while (displayWidth(current + rest) > width) {
      const piece = takeWidth(rest, Math.max(1, width - displayWidth(current))).text;
      lines.push(current + piece);
      rest = rest.slice(piece.length);
      current = hang;
    }
    current += rest;
  }
  if (current.trim() !== '') lines.push(current);
  return lines;
};
