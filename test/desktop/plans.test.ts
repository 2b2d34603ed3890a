import { describe, expect, it } from 'vitest';
import { openPlan } from '../../src/desktop/browser.js';
import { needsTerminal } from '../../src/desktop/editor.js';
import { terminalPlan } from '../../src/desktop/terminal.js';
import type { Finder } from '../../src/desktop/which.js';

/** A machine where exactly `installed` exist: names on PATH (in /usr/bin) and absolute paths. */
const machine = (...installed: string[]): Finder => ({
  onPath: (name) => (installed.includes(name) ? `/usr/bin/${name}` : undefined),
  exists: (file) => installed.includes(file),
});

const request = { choice: 'terminal' as const, argv: ['codex', 'resume', 'r-1'], cwd: '/home/me/shop', keepShell: true };
const wrapped = ['/bin/sh', '-c', 'cd -- "$1" || exit 1; shift; "$@"; exec "${SHELL:-/bin/sh}" -i', 'agentwatch', '/home/me/shop', 'codex', 'resume', 'r-1'];

describe('terminalPlan', () => {
  it.each([
    [['xdg-terminal-exec', 'x-terminal-emulator', 'xterm'], 'xdg-terminal-exec', wrapped],
    [['x-terminal-emulator', 'xterm'], 'x-terminal-emulator', ['-e', ...wrapped]],
    [['konsole', 'xterm'], 'konsole', ['--workdir', '/home/me/shop', '-e', ...wrapped]],
    [['gnome-terminal', 'konsole'], 'gnome-terminal', ['--working-directory=/home/me/shop', '--', ...wrapped]],
    [['alacritty'], 'alacritty', ['--working-directory', '/home/me/shop', '-e', ...wrapped]],
    [['wezterm'], 'wezterm', ['start', '--cwd', '/home/me/shop', '--', ...wrapped]],
    [['xterm'], 'xterm', ['-e', ...wrapped]],
  ])('Linux with %j installed: %s', (installed, terminal, args) => {
    const plan = terminalPlan(request, 'linux', machine(...installed));
    expect(plan).toEqual({ terminal, steps: [{ command: `/usr/bin/${terminal}`, args }] });
  });

  it('Linux: kitty when chosen and installed, else the platform order', () => {
    expect(terminalPlan({ ...request, choice: 'kitty' }, 'linux', machine('kitty', 'xdg-terminal-exec'))).toEqual({
      terminal: 'kitty',
      steps: [{ command: '/usr/bin/kitty', args: ['--directory', '/home/me/shop', ...wrapped] }],
    });
    expect(terminalPlan({ ...request, choice: 'kitty' }, 'linux', machine('xdg-terminal-exec'))).toMatchObject({ terminal: 'xdg-terminal-exec' });
  });

  it('Linux without any terminal: a message listing what was looked for', () => {
    expect(terminalPlan(request, 'linux', machine())).toEqual({ error: expect.stringMatching(/^no terminal found: .*xdg-terminal-exec, x-terminal-emulator, gnome-terminal/) });
  });

  it('macOS kitty: one instance group, raised after launch; the app bundle when kitty is not on PATH', () => {
    const plan = terminalPlan({ ...request, choice: 'kitty' }, 'darwin', machine('osascript', '/Applications/kitty.app/Contents/MacOS/kitty'));
    expect(plan).toEqual({
      terminal: 'kitty',
      steps: [
        { command: '/Applications/kitty.app/Contents/MacOS/kitty', args: ['--single-instance', '--instance-group', 'agentwatch', '--directory', '/home/me/shop', ...wrapped] },
        { command: '/usr/bin/osascript', args: ['-e', 'tell application "kitty" to activate'] },
      ],
    });
  });

  it('macOS: Terminal.app with every word quoted for the shell and the script', () => {
    const plan = terminalPlan({ ...request, cwd: `/Users/me/it's "here"` }, 'darwin', machine());
    expect(plan).toEqual({
      terminal: 'Terminal',
      steps: [
        {
          command: '/usr/bin/osascript',
          args: ['-e', 'tell application "Terminal"', '-e', `do script "cd '/Users/me/it'\\\\''s \\"here\\"' && 'codex' 'resume' 'r-1'"`, '-e', 'activate', '-e', 'end tell'],
        },
      ],
    });
  });

  it('Windows: said plainly, nothing started', () => {
    expect(terminalPlan(request, 'win32', machine('wt'))).toEqual({ error: expect.stringMatching(/Linux and macOS/) });
  });
});

describe('openPlan (--gui)', () => {
  const url = 'http://127.0.0.1:7421/#token=abc';
  it.each([
    [['chromium', 'google-chrome', 'xdg-open'], '/usr/bin/chromium'],
    [['google-chrome-stable', 'xdg-open'], '/usr/bin/google-chrome-stable'],
    [['microsoft-edge', 'brave-browser'], '/usr/bin/microsoft-edge'],
    [['brave-browser', 'xdg-open'], '/usr/bin/brave-browser'],
  ])('Linux %j: an app window of %s', (installed, command) => {
    expect(openPlan(url, 'linux', {}, machine(...installed))).toMatchObject({ step: { command, args: [`--app=${url}`] } });
  });

  it('Linux without a Chromium-family browser: xdg-open; without either: an error', () => {
    expect(openPlan(url, 'linux', {}, machine('xdg-open', 'firefox'))).toEqual({ step: { command: '/usr/bin/xdg-open', args: [url] }, how: 'the default browser' });
    expect(openPlan(url, 'linux', {}, machine())).toEqual({ error: expect.stringMatching(/no browser found/) });
  });

  it('macOS: app bundles in /Applications or ~/Applications, else open', () => {
    const chrome = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
    expect(openPlan(url, 'darwin', { HOME: '/Users/me' }, machine(chrome))).toMatchObject({ step: { command: chrome, args: [`--app=${url}`] } });
    const brave = '/Users/me/Applications/Brave Browser.app/Contents/MacOS/Brave Browser';
    expect(openPlan(url, 'darwin', { HOME: '/Users/me' }, machine(brave))).toMatchObject({ step: { command: brave } });
    expect(openPlan(url, 'darwin', { HOME: '/Users/me' }, machine('open'))).toEqual({ step: { command: '/usr/bin/open', args: [url] }, how: 'the default browser' });
  });

  it('Windows: Edge where Windows installs it, else the URL handler', () => {
    const edge = 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe';
    expect(openPlan(url, 'win32', { 'ProgramFiles(x86)': 'C:\\Program Files (x86)' }, machine(edge))).toMatchObject({ step: { command: edge, args: [`--app=${url}`] } });
    expect(openPlan(url, 'win32', {}, machine())).toMatchObject({ step: { args: ['url.dll,FileProtocolHandler', url] } });
  });
});

describe('needsTerminal', () => {
  it.each([
    [['vim'], true],
    [['/usr/local/bin/nvim', '-O'], true],
    [['nano'], true],
    [['hx'], true],
    [['emacs', '-nw'], true],
    [['emacsclient', '-t'], true],
    [['emacs'], false],
    [['code', '--wait'], false],
    [['zed'], false],
    [['gvim'], false],
  ])('%j -> %s', (argv, expected) => {
    expect(needsTerminal(argv)).toBe(expected);
  });
});
