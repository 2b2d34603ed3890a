import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopNotify, NotifierUnavailableError } from '../../../src/sinks/notify/desktop.js';

// Real processes: a stand-in `notify-send` / `osascript` on PATH records its argv, one per line.
describe('desktop notifier adapters', () => {
  let bin: string;
  let out: string;
  beforeEach(async () => {
    bin = await mkdtemp(path.join(tmpdir(), 'aw-notify-'));
    out = path.join(bin, 'argv.txt');
  });
  afterEach(async () => {
    await rm(bin, { recursive: true, force: true });
  });

  const fakeTool = async (name: string, script = `for a in "$@"; do printf '%s\\n' "$a"; done > "${out}"`) => {
    const file = path.join(bin, name);
    await writeFile(file, `#!/bin/sh\n${script}\n`);
    await chmod(file, 0o755);
  };
  const env = () => ({ PATH: bin, HOME: bin });
  const note = { title: 'shop is waiting for you', body: `Claude said "it's done"; \`rm -rf\` $HOME` };

  it('Linux: notify-send gets the title and body as plain arguments', async () => {
    await fakeTool('notify-send');
    await desktopNotify('linux', env())(note);
    expect((await readFile(out, 'utf8')).split('\n')).toEqual(['--app-name=agentwatch', note.title, note.body, '']);
  });

  it('macOS: osascript reads title and body from argv, never from the script text', async () => {
    await fakeTool('osascript');
    await desktopNotify('darwin', env())(note);
    const argv = (await readFile(out, 'utf8')).split('\n');
    expect(argv.slice(-3)).toEqual([note.title, note.body, '']);
    expect(argv.slice(0, -3).join(' ')).not.toContain(note.body);
  });

  it('a missing binary is a NotifierUnavailableError that says what to install', async () => {
    const error = await desktopNotify('linux', env())(note).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotifierUnavailableError);
    expect((error as Error).message).toMatch(/notify-send was not found on PATH \(install libnotify/);
  });

  it('a failing notifier is an ordinary error carrying its stderr', async () => {
    await fakeTool('notify-send', 'echo "Cannot autolaunch D-Bus without X11 $DISPLAY" >&2; exit 1');
    const error = await desktopNotify('linux', env())(note).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NotifierUnavailableError);
    expect((error as Error).message).toBe('notify-send failed: Cannot autolaunch D-Bus without X11');
  });

  it('an unsupported platform is reported as unavailable', async () => {
    await expect(desktopNotify('win32', env())(note)).rejects.toBeInstanceOf(NotifierUnavailableError);
  });
});
