import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { showDashboard } from '../../src/app/modes/gui.js';
import type { CliIo } from '../../src/core/io.js';
import { noDisplay } from '../../src/desktop/display.js';
import { spawnSurviving } from '../../src/desktop/spawn-detached.js';

const NEVER = (): Promise<void> => new Promise(() => undefined);
const AT_ONCE = (): Promise<void> => Promise.resolve();
const sh = (script: string) => ({ command: '/bin/sh', args: ['-c', script] });

describe('a window that must open', () => {
  it('Linux needs DISPLAY or WAYLAND_DISPLAY; macOS and Windows need neither', () => {
    expect(noDisplay('linux', {})).toMatch(/neither DISPLAY nor WAYLAND_DISPLAY is set/);
    expect(noDisplay('linux', { DISPLAY: ':0' })).toBeUndefined();
    expect(noDisplay('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBeUndefined();
    expect(noDisplay('freebsd', {})).toBeDefined();
    expect(noDisplay('darwin', {})).toBeUndefined();
    expect(noDisplay('win32', {})).toBeUndefined();
  });

  it('a program that fails before its first seconds are over is not an open window', async () => {
    await expect(spawnSurviving(sh('exit 3'), { env: {}, settled: NEVER })).rejects.toThrow('/bin/sh ended at once (exit code 3)');
    await expect(spawnSurviving(sh('kill -9 $$'), { env: {}, settled: NEVER })).rejects.toThrow('/bin/sh ended at once (signal SIGKILL)');
  });

  it('one that ends cleanly handed over to a running browser; one still running when the time is up is open', async () => {
    await expect(spawnSurviving(sh('exit 0'), { env: {}, settled: NEVER })).resolves.toBeUndefined();
    await expect(spawnSurviving(sh('read line'), { env: {}, settled: AT_ONCE })).resolves.toBeUndefined();
    await expect(spawnSurviving({ command: '/nonexistent/chromium', args: [] }, { env: {}, settled: NEVER })).rejects.toThrow('/nonexistent/chromium not found');
  });

  it('--gui says why no window opened, with the URL and how to sign in, and never the token', async () => {
    const bin = await mkdtemp(path.join(tmpdir(), 'aw-window-'));
    onTestFinished(() => rm(bin, { recursive: true, force: true }));
    // A browser that refuses to run (as Chromium does as root without --no-sandbox).
    await writeFile(path.join(bin, 'chromium'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const io = { stderr, stdout: new PassThrough(), env: { DISPLAY: ':0', PATH: bin }, platform: 'linux' } as unknown as CliIo;
    await showDashboard({ io, open: true }, { host: '127.0.0.1', port: 7421 }, 'secret-token', { settled: NEVER });
    expect(said).toBe(
      'agentwatch: dashboard at http://127.0.0.1:7421/\n' +
        `agentwatch: no dashboard window: ${path.join(bin, 'chromium')} ended at once (exit code 1); open http://127.0.0.1:7421/ in a browser yourself and sign in with your passphrase (agentwatch passphrase sets a new one)\n`,
    );
  });
});
