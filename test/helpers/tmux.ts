import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The built CLI in a real terminal (tmux on a private socket), driven by keys and mouse
 * sequences, read back with capture-pane. Waits poll the pane (bounded); nothing sleeps for time.
 */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

export interface Tmux {
  readonly run: (...args: string[]) => string;
  readonly pane: (name: string, colors?: boolean) => string;
  readonly keys: (name: string, ...names: string[]) => void;
  readonly typeText: (name: string, text: string) => void;
  /** A mouse event as an xterm SGR (1006) report at 1-based cell x, y: `button` 0 = left, 64/65 = wheel up/down. */
  readonly mouse: (name: string, button: number, x: number, y: number) => void;
  readonly waitFor: (name: string, check: (screen: string) => boolean, what: string, timeoutMs?: number) => Promise<string>;
  readonly waitText: (name: string, text: string) => Promise<string>;
  /** Start the CLI in a detached tmux session of `width`x`height` with exactly `env`; a marker line shows its exit code. */
  readonly launch: (name: string, args: readonly string[], env: Record<string, string>, size?: { width: number; height: number }) => void;
  readonly kill: () => void;
}

export const makeTmux = (label: string): Tmux => {
  const socket = `agentwatch-${label}-${process.pid}`;
  const run = (...args: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const pane = (name: string, colors = false): string => run('capture-pane', '-p', ...(colors ? ['-e'] : []), '-t', name);
  const waitFor = async (name: string, check: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = pane(name);
      if (check(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}; the pane shows:\n${screen}`);
  };
  return {
    run,
    pane,
    keys: (name, ...names) => void run('send-keys', '-t', name, ...names),
    typeText: (name, text) => void run('send-keys', '-t', name, '-l', text),
    mouse: (name, button, x, y) => {
      const press = `\u001b[<${button};${x};${y}M`;
      const release = `\u001b[<${button};${x};${y}m`;
      run('send-keys', '-t', name, '-l', button >= 64 ? press : press + release);
    },
    waitFor,
    waitText: (name, text) => waitFor(name, (screen) => screen.includes(text), JSON.stringify(text)),
    launch: (name, args, env, size = { width: 100, height: 30 }) => {
      const assignments = Object.entries(env).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
      const command = `env -i ${assignments.join(' ')} ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args.join(' ')}; echo "EXITED $?"; sleep 600`;
      run('new-session', '-d', '-s', name, '-x', String(size.width), '-y', String(size.height), command);
    },
    kill: () => {
      try {
        run('kill-server');
      } catch {
        // already gone
      }
    },
  };
};

/** The selected list row (marked with › just inside the border). */
export const selectedRow = (screen: string): string => screen.split('\n').find((line) => line.startsWith('│›')) ?? '';

/** The session rows of the list, top to bottom (the lines between the column headers and the first blank row). */
export const listRows = (screen: string): string[] => {
  const lines = screen.split('\n');
  const header = lines.findIndex((line) => /^│ .*ACTIVITY +NAME/.test(line));
  if (header === -1) return [];
  const rows: string[] = [];
  for (const line of lines.slice(header + 1)) {
    if (!/^│[ ›]\S/.test(line)) break;
    rows.push(line);
  }
  return rows;
};

/** The NAME cell of a list row, read under the header (columns line up with it). */
export const nameCell = (screen: string, row: string): string => {
  const header = screen.split('\n').find((line) => /^│ .*ACTIVITY +NAME/.test(line)) ?? '';
  const start = header.indexOf('NAME');
  const next = header.slice(start + 4).search(/\S/);
  return row.slice(start, next === -1 ? undefined : start + 4 + next).trim();
};
