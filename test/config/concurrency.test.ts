import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { configPath, sessionNamesPath } from '../../src/config/paths.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const worker = fileURLToPath(new URL('./workers/writer.ts', import.meta.url));

const runWorker = (env: Record<string, string>, mode: string, label: string, count: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, mode, label, String(count)], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${label} exited ${code}: ${stderr}`))));
  });

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('two processes writing at once', () => {
  it('lose no config update', async () => {
    await loadConfig(temp.env, { write: true });
    const count = 25;
    await Promise.all([runWorker(temp.env, 'config', 'a', count), runWorker(temp.env, 'config', 'b', count)]);
    const stored = JSON.parse(await readFile(configPath(temp.env), 'utf8')) as { test_log: string[]; api_salt: string };
    expect(stored.test_log).toHaveLength(2 * count);
    for (const label of ['a', 'b']) {
      // Each process's own writes land in its own order.
      const mine = stored.test_log.filter((entry) => entry.startsWith(`${label}-`));
      expect(mine).toEqual(Array.from({ length: count }, (_, i) => `${label}-${i}`));
    }
    expect(stored.api_salt).not.toBe('');
  });

  it('lose no session name', async () => {
    const count = 25;
    await Promise.all([runWorker(temp.env, 'names', 'a', count), runWorker(temp.env, 'names', 'b', count)]);
    const names = JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8')) as Record<string, string>;
    expect(Object.keys(names)).toHaveLength(2 * count);
    expect(names['a-7']).toBe('name a 7');
    expect(names['b-24']).toBe('name b 24');
  });
});
