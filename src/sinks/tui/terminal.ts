import termkit from 'terminal-kit';
import type { KeyPress, MousePress } from './keys.js';
import type { Size } from './layout.js';
import type { RowChange } from './diff.js';

/**
 * The only terminal-kit import that touches the terminal (text.ts takes its width tables):
 * alternate screen, raw key input, resize events, row writes.
 * Everything above this file deals in strings and key names, so it runs in tests without a tty.
 */
export interface Screen {
  readonly size: () => Size;
  /** Enter the alternate screen, hide the cursor, take raw key input. */
  readonly start: () => void;
  /** Give the terminal back exactly as it was: idempotent, synchronous (safe in crash handlers). */
  readonly restore: () => void;
  /** Hand the terminal to a child (the editor) and take it back afterwards. */
  readonly suspend: () => void;
  readonly resume: () => void;
  /** Clear the screen (after a resize or a suspension) before a full redraw. */
  readonly clear: () => void;
  readonly draw: (changes: readonly RowChange[]) => void;
  /** Bytes passed through untouched (OSC 52). */
  readonly writeRaw: (bytes: string) => void;
  readonly onKey: (handler: (key: KeyPress) => void) => () => void;
  /** Clicks and the wheel, at 0-based cell coordinates. */
  readonly onMouse: (handler: (press: MousePress) => void) => () => void;
  readonly onResize: (handler: (size: Size) => void) => () => void;
}

export const openScreen = (): Screen => {
  const term = termkit.terminal;
  let active = false;
  const enter = (): void => {
    term.alternateScreenBuffer(true);
    term.hideCursor(true);
    term.clear();
    // Button events only (clicks and the wheel): no motion tracking, so an idle pointer costs nothing.
    void term.grabInput({ mouse: 'button' });
    active = true;
  };
  const leave = (): void => {
    if (!active) return;
    active = false;
    term.styleReset();
    term.hideCursor(false);
    term.alternateScreenBuffer(false);
    void term.grabInput(false);
  };
  return {
    size: () => ({ width: term.width, height: term.height }),
    start: enter,
    restore: leave,
    suspend: leave,
    resume: enter,
    clear: () => {
      term.clear();
    },
    draw: (changes) => {
      if (changes.length === 0) return;
      // One write per frame, inside synchronized-output marks (DEC mode 2026; ignored where
      // unsupported): the terminal never shows a half-drawn frame.
      const bytes = changes.map((change) => `\u001b[${change.row + 1};1H${change.text}`).join('');
      term.noFormat(`\u001b[?2026h${bytes}\u001b[?2026l`);
    },
    writeRaw: (bytes) => {
      term.noFormat(bytes);
    },
    onKey: (handler) => {
      const listener = (name: string, _matches: string[], data: { isCharacter?: boolean }): void => {
        handler({ name, isCharacter: data.isCharacter === true });
      };
      term.on('key', listener);
      return () => {
        term.off('key', listener);
      };
    },
    onMouse: (handler) => {
      const listener = (name: string, data: { x: number; y: number }): void => {
        handler({ name, x: data.x - 1, y: data.y - 1 });
      };
      term.on('mouse', listener);
      return () => {
        term.off('mouse', listener);
      };
    },
    onResize: (handler) => {
      const listener = (width: number, height: number): void => {
        handler({ width, height });
      };
      term.on('resize', listener);
      return () => {
        term.off('resize', listener);
      };
    },
  };
};
