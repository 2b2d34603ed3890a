import { EventEmitter } from 'node:events';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipboardTools, copyToClipboard, osc52 } from '../../../src/sinks/tui/clipboard.js';
import { installCrashGuard } from '../../../src/sinks/tui/crash-guard.js';
import { editorCommand, runEditor, splitCommand } from '../../../src/sinks/tui/editor.js';
import { captureStderr } from '../../../src/sinks/tui/stderr-capture.js';
import { findOnPath } from '../../../src/util/find-on-path.js';

let root: string;
let bin: string;

/** A real executable on a temp PATH that records its arguments, cwd and stdin into `<name>.log`. */
const fakeTool = async (name: string, exitCode = 0, readsStdin = true): Promise<string> => {
  const file = path.join(bin, name);
  const log = path.join(root, `${name}.log`);
  await writeFile(file, `#!/bin/sh\nPATH=/usr/bin:/bin\n{ echo "args:$*"; echo "cwd:$(pwd)"; ${readsStdin ? 'echo "stdin:$(cat)"; ' : ''}} > "${log}"\nexit ${exitCode}\n`);
  await chmod(file, 0o755);
  return log;
};

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'agentwatch-tui-shell-'));
  bin = path.join(root, 'bin');
  await mkdir(bin);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('clipboard', () => {
  it('OSC 52 carries the text base64-encoded', () => {
    expect(osc52('claude --resume c1')).toBe(`\u001b]52;c;${Buffer.from('claude --resume c1').toString('base64')}\u0007`);
  });

  it.each([
    ['darwin', {}, ['pbcopy']],
    ['linux', { WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, ['wl-copy', 'xclip', 'xsel']],
    ['linux', { DISPLAY: ':0' }, ['xclip', 'xsel']],
    ['linux', {}, []],
  ] as const)('on %s with %j tries %j', (platform, env, expected) => {
    expect(clipboardTools(env, platform).map((tool) => tool.command)).toEqual(expected);
  });

  it('writes OSC 52 and pipes the text into the first installed tool', async () => {
    const log = await fakeTool('xsel');
    const written: string[] = [];
    const env = { PATH: bin, DISPLAY: ':0' };
    expect(findOnPath('xclip', { path: env.PATH })).toBeUndefined();
    const result = await copyToClipboard('codex resume x1', env, 'linux', (bytes) => written.push(bytes));
    expect(result).toEqual({ tool: 'xsel' });
    expect(written).toEqual([osc52('codex resume x1')]);
    const recorded = await readFile(log, 'utf8');
    expect(recorded).toContain('args:--clipboard --input');
    expect(recorded).toContain('stdin:codex resume x1');
  });

  it('still writes OSC 52 when no tool is installed', async () => {
    const written: string[] = [];
    await expect(copyToClipboard('x', { PATH: path.join(root, 'nowhere') }, 'linux', (b) => written.push(b))).resolves.toEqual({});
    expect(written).toHaveLength(1);
  });
});

describe('editor', () => {
  it.each([
    ['vim', ['vim']],
    ['code --new-window', ['code', '--new-window']],
    ['"my editor" -w', ['my editor', '-w']],
    ["subl  -n 'a b'", ['subl', '-n', 'a b']],
    ['a\\ b', ['a b']],
    ['   ', []],
  ])('splits %j into %j', (line, words) => expect(splitCommand(line)).toEqual(words));

  it('prefers the config, then $VISUAL, then $EDITOR', () => {
    expect(editorCommand('code -n', { VISUAL: 'vim', EDITOR: 'nano' }, '/p')).toEqual({ argv: ['code', '-n', '/p'], from: 'config "editor"' });
    expect(editorCommand('', { VISUAL: 'vim', EDITOR: 'nano' }, '/p')).toEqual({ argv: ['vim', '/p'], from: '$VISUAL' });
    expect(editorCommand('', { EDITOR: 'nano' }, '/p')).toEqual({ argv: ['nano', '/p'], from: '$EDITOR' });
    expect(editorCommand('', {}, '/p')).toBeUndefined();
  });

  it('runs the editor on the directory, in the directory, and reports its exit code', async () => {
    const log = await fakeTool('fake-editor', 3, false);
    const project = path.join(root, 'project');
    await mkdir(project);
    const { argv } = editorCommand('fake-editor --wait', { PATH: bin }, project) ?? { argv: [] };
    await expect(runEditor([path.join(bin, argv[0] ?? ''), ...argv.slice(1)], project, { PATH: bin })).resolves.toBe(3);
    const recorded = await readFile(log, 'utf8');
    expect(recorded).toContain(`args:--wait ${project}`);
    expect(recorded).toContain(`cwd:${project}`);
  });

  it('a missing editor or a vanished directory is a clear message', async () => {
    await expect(runEditor(['no-such-editor-xyz'], root, { PATH: bin })).rejects.toThrow('editor "no-such-editor-xyz" not found on PATH');
    await expect(runEditor([path.join(bin, 'fake-editor')], path.join(root, 'gone'), { PATH: bin })).rejects.toThrow(`${path.join(root, 'gone')} does not exist (any more) on this machine`);
  });
});

describe('crash guard', () => {
  const setup = () => {
    const proc = new EventEmitter();
    const stderr = new PassThrough();
    const calls: string[] = [];
    const uninstall = installCrashGuard({ restore: () => calls.push('restore'), report: (message) => stderr.write(message), exit: (code) => calls.push(`exit ${code}`), process: proc });
    return { proc, stderr, calls, uninstall };
  };

  it.each([
    ['uncaughtException', new Error('boom'), 'exit 1'],
    ['unhandledRejection', 'bad promise', 'exit 1'],
    ['SIGTERM', undefined, 'exit 143'],
    ['SIGHUP', undefined, 'exit 129'],
    ['SIGINT', undefined, 'exit 130'],
  ])('%s restores the terminal before exiting', (event, payload, exit) => {
    const { proc, calls, stderr } = setup();
    proc.emit(event, payload);
    expect(calls).toEqual(['restore', exit]);
    if (payload !== undefined) expect(String(stderr.read())).toContain('agentwatch: unexpected error:');
  });

  it('with restore-only (the monitor stops the TUI itself), SIGTERM restores without exiting; SIGHUP still exits', () => {
    const proc = new EventEmitter();
    const calls: string[] = [];
    installCrashGuard({ restore: () => calls.push('restore'), report: () => undefined, exit: (code) => calls.push(`exit ${code}`), process: proc, signals: 'restore-only' });
    proc.emit('SIGTERM');
    expect(calls).toEqual(['restore']);
    proc.emit('SIGHUP');
    expect(calls).toEqual(['restore', 'restore', 'exit 129']);
  });

  it('removes every handler when the TUI ends normally', () => {
    const { proc, uninstall } = setup();
    uninstall();
    for (const event of ['uncaughtException', 'unhandledRejection', 'SIGTERM', 'SIGHUP', 'SIGINT']) expect(proc.listenerCount(event)).toBe(0);
  });
});

describe('stderr capture', () => {
  it('holds whole lines while the TUI draws, hands them back once, and restores the stream', () => {
    const stream = new PassThrough();
    const original = stream.write;
    const seen: string[] = [];
    const capture = captureStderr(stream, (line) => seen.push(line));
    stream.write('agentwatch: claude: source failed\npartial');
    stream.write(Buffer.from(' line\n'));
    expect(seen).toEqual(['agentwatch: claude: source failed', 'partial line']);
    expect(stream.read()).toBeNull();
    expect(capture.release()).toEqual(['agentwatch: claude: source failed', 'partial line']);
    expect(capture.release()).toEqual([]);
    expect(stream.write).toBe(original);
  });
});
