import { RuntimeError, type CliIo } from '../core/io.js';

/**
 * Hidden terminal input (passphrases): raw mode, nothing echoed, Backspace edits, Enter ends,
 * Ctrl-C / Ctrl-D cancel. The key handling is a pure fold over input chunks so it is unit-tested;
 * `readHidden` is the thin shell around the TTY.
 */

export interface HiddenInput {
  readonly value: string;
  readonly status: 'typing' | 'done' | 'cancelled';
}

export const EMPTY_INPUT: HiddenInput = { value: '', status: 'typing' };

/** Pure: apply one chunk of raw terminal input. Escape sequences (arrows, function keys) are ignored. */
export const applyKeys = (input: HiddenInput, chunk: string): HiddenInput => {
  let { value } = input;
  const chars = [...chunk];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] ?? '';
    if (char === '\r' || char === '\n') return { value, status: 'done' };
    if (char === '\u0003' || (char === '\u0004' && value === '')) return { value: '', status: 'cancelled' };
    if (char === '\u007f' || char === '\b') {
      value = [...value].slice(0, -1).join('');
    } else if (char === '\u0015') {
      value = ''; // Ctrl-U clears the line, as in a shell.
    } else if (char === '\u001b') {
      // Skip a CSI/SS3 sequence: ESC [ params final-byte, or ESC O x.
      if (chars[i + 1] === '[' || chars[i + 1] === 'O') {
        i += 2;
        while (i < chars.length && !/[@-~]/.test(chars[i] ?? '~')) i++;
      }
    } else if (char >= ' ') {
      value += char;
    }
  }
  return { value, status: 'typing' };
};

type RawCapable = NodeJS.ReadableStream & { readonly isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export const canPrompt = (io: Pick<CliIo, 'stdin'>): boolean => io.stdin.isTTY === true;

/** Ask `question` on stderr and read one hidden line from the terminal. Rejects with RuntimeError on Ctrl-C. */
export const readHidden = (io: Pick<CliIo, 'stdin' | 'stderr'>, question: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const stdin = io.stdin as RawCapable;
    if (stdin.isTTY !== true || typeof stdin.setRawMode !== 'function') {
      reject(new RuntimeError('cannot read a passphrase: standard input is not a terminal'));
      return;
    }
    // NOTE: raw mode before the question: whatever is typed once the question shows is never echoed.
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    io.stderr.write(question);
    let state = EMPTY_INPUT;
    const finish = (): void => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
    };
    const onData = (chunk: string | Buffer): void => {
      state = applyKeys(state, chunk.toString());
      if (state.status === 'typing') return;
      finish();
      if (state.status === 'done') resolve(state.value);
      else reject(new RuntimeError('cancelled'));
    };
    stdin.on('data', onData);
    stdin.resume();
  });
