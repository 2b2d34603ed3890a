import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDir, sessionNamesPath } from '../../src/config/paths.js';
import { loadSessionNames, setSessionName } from '../../src/config/session-names.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('session-names.json', () => {
  it('is empty when absent', async () => {
    expect(await loadSessionNames(temp.env)).toEqual({ names: {} });
  });

  it('sets, persists beside the config (0600) and clears names', async () => {
    await setSessionName(temp.env, 'abc', '  Rate limiter  ');
    await setSessionName(temp.env, 'def', 'Docs');
    const file = sessionNamesPath(temp.env);
    expect(path.dirname(file)).toBe(configDir(temp.env));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ abc: 'Rate limiter', def: 'Docs' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await loadSessionNames(temp.env)).names).toEqual({ abc: 'Rate limiter', def: 'Docs' });

    await setSessionName(temp.env, 'abc', '');
    expect((await loadSessionNames(temp.env)).names).toEqual({ def: 'Docs' });
    await setSessionName(temp.env, 'def', undefined);
    expect((await loadSessionNames(temp.env)).names).toEqual({});
  });

  it('reads the lazyagent format as is', async () => {
    await mkdir(configDir(temp.env), { recursive: true });
    await writeFile(sessionNamesPath(temp.env), '{"6d1f0c9e":"Rate limiter"}');
    expect((await loadSessionNames(temp.env)).names).toEqual({ '6d1f0c9e': 'Rate limiter' });
  });

  it('a corrupt file is reported on read and left in place', async () => {
    await mkdir(configDir(temp.env), { recursive: true });
    const file = sessionNamesPath(temp.env);
    await writeFile(file, '{"abc": "x",');
    const loaded = await loadSessionNames(temp.env);
    expect(loaded.names).toEqual({});
    expect(loaded.problem).toMatch(/not a JSON object of names/);
    expect(await readFile(file, 'utf8')).toBe('{"abc": "x",');
  });

  it('a corrupt file is kept aside, not lost, when a name is written', async () => {
    await mkdir(configDir(temp.env), { recursive: true });
    const file = sessionNamesPath(temp.env);
    await writeFile(file, '["not", "an", "object"]');
    const result = await setSessionName(temp.env, 'abc', 'New');
    expect(result.problem).toMatch(/moved it to .*session-names\.json\.corrupt-/);
    const aside = (await readdir(configDir(temp.env))).find((name) => name.startsWith('session-names.json.corrupt-'));
    expect(aside).toBeDefined();
    expect(await readFile(path.join(configDir(temp.env), aside ?? ''), 'utf8')).toBe('["not", "an", "object"]');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ abc: 'New' });
  });
});
