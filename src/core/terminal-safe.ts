/**
 * Text for a terminal: what the CLI prints outside the TUI comes from transcripts, file names and
 * peers (a receiver's or a provider's error body), and a terminal obeys the control sequences in
 * it (OSC 52 writes the clipboard, CSI 2J clears the screen, OSC 0 sets the window title). Every
 * character a terminal would act on or hide is shown escaped instead: C0 and C1 controls and DEL
 * as `\xNN` (ESC becomes `\x1b`, so the rest of a sequence prints as plain text), and bidi
 * overrides, isolates and marks, zero-width characters (but a joiner inside an emoji) and line
 * separators as `\uNNNN`.
 */

const UNSAFE_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff]';
/** A zero-width joiner inside an emoji sequence (👩‍💻): kept, it hides nothing. */
const EMOJI_JOIN = '\\p{Extended_Pictographic}(?:[\\u{1F3FB}-\\u{1F3FF}]|\\ufe0f)?\\u200d(?=\\p{Extended_Pictographic})';
/** An SGR color sequence (`ESC [ … m`), to keep the colors we add ourselves. */
const SGR = '\\u001b\\[[0-9;]*m';
/** Characters a terminal acts on, or that reorder or hide the text around them; longer matches are kept. */
const UNSAFE = new RegExp(`${EMOJI_JOIN}|${UNSAFE_CLASS}`, 'gu');
const UNSAFE_OR_SGR = new RegExp(`${SGR}|${EMOJI_JOIN}|${UNSAFE_CLASS}`, 'gu');

const escaped = (char: string): string => {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

export interface TerminalSafeOptions {
  /** Characters kept as they are (markers of our own, such as a snippet's hit delimiters). */
  readonly keep?: string;
  /** Keep newlines and tabs (a block printed on purpose over several lines). Default true. */
  readonly multiline?: boolean;
  /**
   * Keep SGR color sequences: for output we colored ourselves (only when color is on). Text
   * from outside is made safe before it is colored, so none of its sequences reach this.
   */
  readonly colored?: boolean;
}

/** `text` with every character a terminal would act on or hide shown escaped. */
export const terminalSafe = (text: string, options: TerminalSafeOptions = {}): string => {
  const multiline = options.multiline ?? true;
  return text.replace(options.colored ? UNSAFE_OR_SGR : UNSAFE, (match) => {
    if (match.length > 1 || options.keep?.includes(match)) return match;
    return multiline && (match === '\n' || match === '\t') ? match : escaped(match);
  });
};

/** One line of `text` (a name, a path, a field of a table): newlines and tabs are escaped too. */
export const terminalSafeLine = (text: string): string => terminalSafe(text, { multiline: false });

/** True when `text` holds a character `terminalSafeLine` would escape. */
export const hasUnsafeCharacters = (text: string): boolean => terminalSafeLine(text) !== text;

/**
 * `value` with every string in it (in plain objects and arrays, at any depth) made safe as one
 * line: for a record from outside, before it is laid out and colored.
 */
export const terminalSafeFields = <T>(value: T, options: Pick<TerminalSafeOptions, 'keep'> = {}): T => {
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') return terminalSafe(item, { ...options, multiline: false });
    if (Array.isArray(item)) return item.map(visit);
    if (item !== null && typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      return Object.fromEntries(Object.entries(item).map(([key, field]) => [key, visit(field)]));
    }
    return item;
  };
  return visit(value) as T;
};
