import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { detectTheme, parseOsc11, queryBackground, reasonNotToQuery, themeOfColorFgBg } from '../../../src/sinks/tui/detect-theme.js';

const answer = (rgb: string, end = '\u0007'): string => `\u001b]11;rgb:${rgb}${end}`;

describe('OSC 11 answer parsing', () => {
  it.each([
    [answer('0000/0000/0000'), 'dark'],
    [answer('ffff/ffff/ffff'), 'light'],
    [answer('1e1e/1e1e/2e2e', '\u001b\\'), 'dark'],
    [answer('fdfd/f6f6/e3e3'), 'light'],
    [answer('ff/ff/ff'), 'light'],
    [answer('2/2/2'), 'dark'],
    [`\u001b]11;rgba:ffff/ffff/ffff/ffff\u0007`, 'light'],
  ])('%j reads as %s', async (text, expected) => {
    expect(parseOsc11(text)).toBeDefined();
    await expect(detectTheme({ setting: 'auto', env: {}, interactive: true, query: () => Promise.resolve(text) })).resolves.toBe(expected);
  });

  it.each(['', 'garbage', '\u001b]11;?\u0007', '\u001b]10;rgb:ffff/ffff/ffff\u0007'])('%j is no answer', (text) => {
    expect(parseOsc11(text)).toBeUndefined();
  });
});

describe('COLORFGBG', () => {
  it.each([
    ['15;0', 'dark'],
    ['0;15', 'light'],
    ['0;default;7', 'light'],
    ['7;8', 'dark'],
    ['12;4', 'dark'],
    ['default', undefined],
    ['0;255', undefined],
    [undefined, undefined],
  ])('%j gives %s', (value, expected) => expect(themeOfColorFgBg(value)).toBe(expected));
});

describe('detectTheme', () => {
  const light = () => Promise.resolve(answer('ffff/ffff/ffff'));
  const never = (): Promise<string | undefined> => {
    throw new Error('must not query');
  };

  it('an explicit setting wins without asking', async () => {
    await expect(detectTheme({ setting: 'light', env: { CI: '1' }, interactive: false, query: never })).resolves.toBe('light');
    await expect(detectTheme({ setting: 'dark', env: {}, interactive: true, query: light })).resolves.toBe('dark');
  });

  it.each([
    [{ TMUX: '/tmp/tmux-1/default,1,0' }, true],
    [{ STY: '1234.pts-0' }, true],
    [{ TERM: 'screen-256color' }, true],
    [{ CI: 'true' }, true],
    [{}, false],
  ])('does not query under %j (or without a TTY) and resolves to dark', async (env, interactive) => {
    await expect(detectTheme({ setting: 'auto', env, interactive, query: never })).resolves.toBe('dark');
    expect(reasonNotToQuery(env, interactive)).toBeDefined();
  });

  it('honours COLORFGBG before asking the terminal, even inside tmux', async () => {
    await expect(detectTheme({ setting: 'auto', env: { COLORFGBG: '0;15', TMUX: 'x' }, interactive: true, query: never })).resolves.toBe('light');
  });

  it('every failure resolves to dark', async () => {
    await expect(detectTheme({ setting: 'auto', env: {}, interactive: true, query: () => Promise.resolve(undefined) })).resolves.toBe('dark');
    await expect(detectTheme({ setting: 'auto', env: {}, interactive: true, query: () => Promise.reject(new Error('EIO')) })).resolves.toBe('dark');
    await expect(detectTheme({ setting: 'auto', env: {}, interactive: true, query: () => Promise.resolve('junk') })).resolves.toBe('dark');
  });
});

/** A stdin stand-in with raw-mode bookkeeping; `answer` is what the "terminal" replies to the query. */
const fakeTty = (reply: (query: string) => string | undefined) => {
  const stdin = Object.assign(new PassThrough(), { isRaw: false, rawCalls: [] as boolean[] });
  const rawStdin = Object.assign(stdin, {
    setRawMode(mode: boolean) {
      stdin.isRaw = mode;
      stdin.rawCalls.push(mode);
      return stdin;
    },
  });
  const stdout = new PassThrough();
  stdout.on('data', (chunk: Buffer) => {
    const text = reply(chunk.toString());
    if (text !== undefined) setImmediate(() => stdin.write(text));
  });
  return { stdin: rawStdin, stdout };
};

describe('queryBackground (the tty side)', () => {
  it('sends OSC 11 plus a DA query and returns the OSC 11 answer, restoring raw mode', async () => {
    let sent = '';
    const { stdin, stdout } = fakeTty((q) => {
      sent = q;
      return `${answer('ffff/ffff/ffff')}\u001b[?62;22c`;
    });
    await expect(queryBackground(stdin, stdout, 5000)).resolves.toContain(']11;rgb:ffff/ffff/ffff');
    expect(sent).toBe('\u001b]11;?\u0007\u001b[c');
    expect(stdin.rawCalls).toEqual([true, false]);
  });

  it('stops at the DA answer when the terminal does not know OSC 11', async () => {
    const { stdin, stdout } = fakeTty(() => '\u001b[?1;2c');
    await expect(queryBackground(stdin, stdout, 60_000)).resolves.toBeUndefined();
    expect(stdin.isRaw).toBe(false);
  });

  it('gives up after the timeout when nothing answers', async () => {
    vi.useFakeTimers();
    try {
      const { stdin, stdout } = fakeTty(() => undefined);
      const result = queryBackground(stdin, stdout, 150);
      await vi.advanceTimersByTimeAsync(149);
      expect(stdin.isRaw).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toBeUndefined();
      expect(stdin.isRaw).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
