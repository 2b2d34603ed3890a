import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { nameCell, selectedRow } from './helpers/tmux.js';
import { fixture, startClaudeVendor, type Vendor } from './sinks/tui/vendor.js';

/**
 * End to end: the built CLI in a real terminal (tmux), driven by keys, read back with
 * capture-pane. Waits poll the pane (bounded) for the expected text; nothing sleeps for time.
 */
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const SOCKET = `agentwatch-tui-${process.pid}`;
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const pane = (name: string): string => tmux('capture-pane', '-p', '-t', name);
const keys = (name: string, ...names: string[]): void => void tmux('send-keys', '-t', name, ...names);
const typeText = (name: string, text: string): void => void tmux('send-keys', '-t', name, '-l', text);

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
const waitText = (name: string, text: string): Promise<string> => waitFor(name, (screen) => screen.includes(text), JSON.stringify(text));

/** The name of the selected session (the list row marked with ›). */
const selectedName = (screen: string): string => nameCell(screen, selectedRow(screen));

let home: TempHome;
let vendor: Vendor;
let env: Record<string, string>;
/** The transcript's project directory: real, so `o` can open it. */
let project: string;
/** What the stand-in editor ($EDITOR) records. */
let editorLog: string;

/** Start the CLI in a detached 100x30 tmux session with exactly `env`; a marker line shows its exit code. */
const launch = (name: string, args: readonly string[], extra: Record<string, string> = {}): void => {
  const assignments = Object.entries({ ...env, ...extra }).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  const command = `env -i ${assignments.join(' ')} TMUX="$TMUX" ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} ${args.join(' ')}; echo "EXITED $?"; sleep 600`;
  tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '30', command);
};

const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();

/** A real Claude Code transcript in the temp HOME, written moments ago. */
const writeClaudeTranscript = async (): Promise<string> => {
  const id = randomUUID();
  await mkdir(project, { recursive: true });
  const dir = path.join(home.home, '.claude', 'projects', project.replace(/[^a-zA-Z0-9]/g, '-'));
  await mkdir(dir, { recursive: true });
  const base = { sessionId: id, cwd: project, version: '2.0.14', gitBranch: 'main' };
  const lines = [
    JSON.stringify({ ...base, type: 'user', timestamp: iso(90_000), message: { role: 'user', content: 'Add rate limiting to the login route' } }),
    '{"type":"assistant", this line is junk',
    JSON.stringify({
      ...base,
      type: 'assistant',
      timestamp: iso(60_000),
      message: { role: 'assistant', id: 'msg_1', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Added a token bucket.' }], usage: { input_tokens: 1200, output_tokens: 340 } },
    }),
  ];
  await writeFile(path.join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
  return id;
};

beforeAll(async () => {
  if (!hasTmux) return;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  home = await makeTempHome('agentwatch-tui-e2e-');
  vendor = await startClaudeVendor();
  await mkdir(path.join(home.home, '.claude'), { recursive: true });
  await writeFile(path.join(home.home, '.claude', '.credentials.json'), fixture('claude/credentials.json'));
  project = path.join(home.root, 'work', 'acme-api');
  editorLog = path.join(home.root, 'editor.log');
  const editor = path.join(home.root, 'fake-editor');
  await writeFile(editor, `#!/bin/sh\necho "$@" > ${JSON.stringify(editorLog)}\n`);
  await chmod(editor, 0o755);
  const { NO_COLOR: _noColor, ...rest } = home.env;
  env = { ...rest, TERM: 'xterm-256color', LANG: 'C.UTF-8', AGENTWATCH_CLAUDE_API_URL: vendor.url, EDITOR: editor };
});

afterAll(async () => {
  if (!hasTmux) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  await vendor.close();
  await home.cleanup();
});

describe.skipIf(!hasTmux)('agentwatch TUI in a real terminal (tmux)', () => {
  it('--demo: lists sessions; keys move, filter, search, rename, open limits; q restores the terminal', async () => {
    const name = 'demo';
    launch(name, ['--demo']);
    let screen = await waitText(name, 'sessions ·');
    await waitFor(name, (s) => /│›\S/.test(s), 'a selected row');
    expect(tmux('display', '-p', '-t', name, '#{alternate_on} #{cursor_flag}').trim()).toBe('1 0');

    // Move down and up: the selection moves to another session each time (demo sessions reorder
    // as they work, so compare sessions, not row numbers).
    const first = selectedName(pane(name));
    keys(name, 'j');
    const second = selectedName(await waitFor(name, (s) => selectedName(s) !== first, 'the selection to move down'));
    keys(name, 'k');
    await waitFor(name, (s) => selectedName(s) !== second, 'the selection to move up');

    // Window: + widens by 10 minutes, - narrows back.
    keys(name, '+');
    await waitText(name, 'window 40m');
    keys(name, '-');
    await waitText(name, 'window 30m');

    // Filter: all -> active.
    keys(name, 'f');
    screen = await waitText(name, 'filter active');

    // Search by path narrows the list to the one project.
    keys(name, ...Array.from({ length: 11 }, () => 'f'));
    await waitFor(name, (s) => /filter all/.test(s), 'the filter back at all');
    keys(name, '/');
    typeText(name, 'acme-api');
    keys(name, 'Enter');
    screen = await waitFor(name, (s) => /Sessions +1\/1/.test(s) && s.includes('search "acme-api"'), 'one search match');
    expect(selectedRow(screen)).toContain('acme-api');

    // Rename it; the name lands in session-names.json in the temp XDG_CONFIG_HOME.
    keys(name, 'r');
    await waitText(name, 'Rename');
    keys(name, 'C-u');
    typeText(name, 'login limits');
    keys(name, 'Enter');
    screen = await waitText(name, 'Renamed to "login limits"');
    expect(selectedRow(screen)).toContain('login limits');
    const names = JSON.parse(await readFile(path.join(env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'session-names.json'), 'utf8')) as Record<string, string>;
    expect(Object.values(names)).toEqual(['login limits']);
    // c copies the resume command (OSC 52; no clipboard tool in this environment).
    keys(name, 'c');
    await waitText(name, 'Copied: claude --resume');
    keys(name, 'Escape');
    await waitFor(name, (s) => !s.includes('search "acme-api"'), 'the search cleared');

    // Limits under --demo: generated sample windows marked as sample, no request to any vendor;
    // Detailed tab, closed with Esc.
    const before = vendor.requests.length;
    keys(name, 'l');
    screen = await waitText(name, 'Sample data (--demo)');
    expect(screen).toContain('Limits');
    expect(vendor.requests.length - before).toBe(0);
    keys(name, 'Tab');
    await waitFor(name, (s) => /Used/.test(s) && s.includes('Detailed'), 'the detailed tab');
    keys(name, 'Escape');
    await waitFor(name, (s) => !s.includes('┌─ Limits'), 'the modal closed');
    expect(vendor.requests.length - before).toBe(0);

    // q: the program exits 0 and the shell's screen is back (alternate screen left, cursor shown).
    keys(name, 'q');
    screen = await waitText(name, 'EXITED 0');
    expect(screen).not.toContain('sessions ·');
    expect(tmux('display', '-p', '-t', name, '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
  });

  it('a fixture HOME with a real Claude transcript: the session is listed with its details', async () => {
    const id = await writeClaudeTranscript();
    const name = 'fixture';
    launch(name, ['--agent', 'claude']);
    const screen = await waitText(name, 'acme-api');
    expect(screen).toMatch(/1 sessions · 0 active · 1 waiting/);
    expect(screen).toContain('claude-sonnet-4-5');
    expect(screen).toContain(`Directory   ${project}`);
    expect(screen).toContain('Branch      main');
    // The junk line is skipped, not fatal, and raises no banner: it needs nothing from the user
    // (doctor lists it).
    expect(screen).not.toContain('diagnostic');
    // The full record scrolls: tab to the detail panel, then down to the session id.
    keys(name, 'Tab', 'G');
    await waitText(name, `Session id  ${id}`);
    keys(name, 'Tab');

    // o: the editor ($EDITOR) runs on the session's directory, then the TUI comes back.
    keys(name, 'o');
    await waitText(name, `Opened ${project} with $EDITOR`);
    expect((await readFile(editorLog, 'utf8')).trim()).toBe(project);

    // Resize to 80x24: everything is redrawn at the new size, the keys still fit.
    tmux('resize-window', '-t', name, '-x', '80', '-y', '24');
    const small = await waitText(name, 'tab panel +- window f filter / find s search l limits S sort ? help q quit');
    expect(small.split('\n').every((line) => line.length <= 80)).toBe(true);
    expect(small).toContain('acme-api');
    keys(name, 'C-c');
    await waitText(name, 'EXITED 0');
    expect(tmux('display', '-p', '-t', name, '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
  });

  it.each([
    ['light from the config', { theme: 'light' }, {}, /48;5;253/, /48;5;236/],
    ['auto honours COLORFGBG (light background)', { theme: 'auto' }, { COLORFGBG: '0;15' }, /48;5;253/, /48;5;236/],
    ['auto inside tmux without hints is dark', { theme: 'auto' }, {}, /48;5;236/, /48;5;253/],
    // Reverse video (SGR 7) still marks the selection; no 256-color codes at all.
    ['NO_COLOR draws without colors', { theme: 'dark' }, { NO_COLOR: '1' }, /\[[0-9;]*7m/, /[34]8;5;\d+/],
  ])('themes: %s', async (_label, tui, extra, present, absent) => {
    const name = `theme-${Math.random().toString(36).slice(2, 8)}`;
    const config = path.join(home.root, name);
    await mkdir(path.join(config, 'agentwatch'), { recursive: true });
    await writeFile(path.join(config, 'agentwatch', 'config.json'), JSON.stringify({ tui }));
    launch(name, ['--demo'], { ...extra, XDG_CONFIG_HOME: config });
    // The list draws while discovery runs ("0 sessions"); the selection bar needs a demo row.
    await waitFor(name, (screen) => /[1-9]\d* sessions ·/.test(screen) && !screen.includes('Discovering'), 'the demo sessions');
    const colored = tmux('capture-pane', '-p', '-e', '-t', name);
    expect(colored).toMatch(present);
    expect(colored).not.toMatch(absent);
    keys(name, 'q');
    await waitText(name, 'EXITED 0');
  });

  it('without a terminal it refuses with a clear message (exit 1) instead of drawing into a pipe', () => {
    const result = spawnSync(process.execPath, [CLI, '--demo'], { env, encoding: 'utf8', input: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the terminal UI needs an interactive terminal');
    expect(result.stdout).toBe('');
  });

  it('SIGTERM while drawing: the terminal is restored before the process ends', async () => {
    const name = 'sigterm';
    launch(name, ['--demo']);
    await waitText(name, 'sessions ·');
    const pid = tmux('display', '-p', '-t', name, '#{pane_pid}').trim();
    // The pane runs `sh -c`; the CLI (process title "agentwatch") is its child.
    const child = execFileSync('pgrep', ['-P', pid], { encoding: 'utf8' }).trim().split('\n')[0] ?? '';
    process.kill(Number(child), 'SIGTERM');
    await waitText(name, 'EXITED');
    expect(tmux('display', '-p', '-t', name, '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
  });
  it('s searches what was said and jumps to the session (content search over the index)', async () => {
    await writeClaudeTranscript();
    const name = 'content';
    launch(name, ['--agent', 'claude']);
    await waitText(name, 'acme-api');
    keys(name, 's');
    await waitText(name, 'Search messages:');
    typeText(name, 'login');
    keys(name, 'Enter');
    const screen = await waitText(name, '"login": Add rate limiting to the login route');
    expect(screen).not.toContain('Search messages:');
    keys(name, 'q');
    await waitText(name, 'EXITED 0');
  });

});
