import type { Env } from '../../config/paths.js';
import type { ThemeName } from './theme.js';

/**
 * `tui.theme: "auto"` (docs/tui.md): find out whether the terminal background is light or dark.
 * Every failure resolves to dark. Decision logic is pure; only `queryBackground` touches the tty.
 */

export interface Rgb {
  /** 0..1 each. */
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

const channel = (hex: string): number => parseInt(hex, 16) / (16 ** hex.length - 1);

/**
 * The color in an OSC 11 answer: `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or ST. Channels
 * have 1 to 4 hex digits (xterm scales each by its own width). `undefined` for anything else.
 */
export const parseOsc11 = (answer: string): Rgb | undefined => {
  // eslint-disable-next-line no-control-regex -- the answer is an escape sequence
  const match = /\u001b\]11;rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})/i.exec(answer);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { r: channel(match[1]), g: channel(match[2]), b: channel(match[3]) };
};

/** Relative luminance (sRGB, Rec. 709 weights, gamma-expanded). */
const luminance = ({ r, g, b }: Rgb): number => {
  const lin = (c: number): number => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};

/** Mid-grey (#777) has luminance ~0.18: anything brighter reads as a light background. */
const themeOfBackground = (rgb: Rgb): ThemeName => (luminance(rgb) > 0.18 ? 'light' : 'dark');

/**
 * `COLORFGBG` ("fg;bg" or "fg;default;bg", set by rxvt, Konsole, some others): the last field is
 * the background's ANSI index. 7 and 9-15 are light; 0-6 and 8 dark. Unparseable -> undefined.
 */
export const themeOfColorFgBg = (value: string | undefined): ThemeName | undefined => {
  if (!value) return undefined;
  const last = value.split(';').at(-1)?.trim() ?? '';
  if (!/^\d{1,2}$/.test(last)) return undefined;
  const bg = Number(last);
  if (bg > 15) return undefined;
  return bg === 7 || bg >= 9 ? 'light' : 'dark';
};

/**
 * Why the terminal must not be asked: multiplexers answer with their own default or swallow the
 * query, CI has no terminal, and without a TTY nobody answers. `undefined` means "ask".
 */
export const reasonNotToQuery = (env: Env, interactive: boolean): string | undefined => {
  if (!interactive) return 'not a terminal';
  if (env.CI) return 'CI';
  if (env.TMUX) return 'tmux';
  if (env.STY) return 'screen';
  if ((env.TERM ?? '').startsWith('screen')) return 'screen';
  if (env.TERM === 'dumb') return 'dumb terminal';
  return undefined;
};

export interface DetectInput {
  readonly setting: 'auto' | ThemeName;
  readonly env: Env;
  /** stdin and stdout are both TTYs. */
  readonly interactive: boolean;
  /** Sends OSC 11 and resolves to the raw answer, or undefined on timeout/failure. */
  readonly query: () => Promise<string | undefined>;
}

/** The palette to use. Explicit settings win; "auto" asks COLORFGBG, then the terminal; dark on every failure. */
export const detectTheme = async (input: DetectInput): Promise<ThemeName> => {
  if (input.setting !== 'auto') return input.setting;
  if (!input.interactive || input.env.CI) return 'dark';
  const hinted = themeOfColorFgBg(input.env.COLORFGBG);
  if (hinted) return hinted;
  if (reasonNotToQuery(input.env, input.interactive)) return 'dark';
  try {
    const answer = await input.query();
    const rgb = answer === undefined ? undefined : parseOsc11(answer);
    return rgb ? themeOfBackground(rgb) : 'dark';
  } catch {
    return 'dark';
  }
};

/** Short: the user is waiting for the first frame. Terminals that answer do so in a few ms. */
const QUERY_TIMEOUT_MS = 150;

type RawInput = NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown; isRaw?: boolean };

/**
 * Ask the terminal for its background (OSC 11), followed by a Device Attributes query that every
 * terminal answers: when the DA answer arrives first, OSC 11 is unsupported and we stop waiting.
 * Raw mode is restored whatever happens.
 */
export const queryBackground = (stdin: RawInput, stdout: NodeJS.WritableStream, timeoutMs = QUERY_TIMEOUT_MS): Promise<string | undefined> =>
  new Promise((resolve) => {
    if (typeof stdin.setRawMode !== 'function') {
      resolve(undefined);
      return;
    }
    const wasRaw = stdin.isRaw === true;
    let received = '';
    let done = false;
    const finish = (answer: string | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(wasRaw);
      stdin.pause();
      resolve(answer);
    };
    const onData = (chunk: Buffer | string): void => {
      received += chunk.toString();
      // eslint-disable-next-line no-control-regex -- terminal answers are escape sequences
      if (/\u001b\]11;[^\u0007\u001b]*(\u0007|\u001b\\)/.test(received)) finish(received);
      // eslint-disable-next-line no-control-regex -- the Device Attributes answer: ESC [ ? ... c
      else if (/\u001b\[\?[\d;]*c/.test(received)) finish(undefined);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    try {
      stdin.setRawMode(true);
      stdin.on('data', onData);
      stdin.resume();
      stdout.write('\u001b]11;?\u0007\u001b[c');
    } catch {
      finish(undefined);
    }
  });
