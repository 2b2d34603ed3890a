import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { kimi } from '../../../src/sources/kimi/index.js';
import { kimiLegacySpec } from '../../../src/sources/kimi/legacy.js';
import { classifyKimiLegacyFile, kimiLegacyRoot, readKimiLegacyMetadata } from '../../../src/sources/kimi/legacy-paths.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { FIXTURES, makeCtx, useFixtureHome } from '../../helpers/source-harness.js';

const ID = '3d4e5f60-7182-4a93-b4c5-d6e7f8091a2b';
const T0 = Date.parse('2026-03-10T09:00:00.000Z');

describe('the Kimi CLI tree (~/.kimi) beside Kimi Code', () => {
  const fx = useFixtureHome('agentwatch-kimi-legacy-', async (home) => {
    await cp(path.join(FIXTURES, 'kimi', '.kimi-code'), path.join(home.home, '.kimi-code'), { recursive: true });
    await cp(path.join(FIXTURES, 'kimi', 'legacy', '.kimi'), path.join(home.home, '.kimi'), { recursive: true });
  });

  it('reads both trees: a Kimi CLI session with its folder, prompt, tools, tokens and protocol', async () => {
    const run = await fx.once(kimi);
    const sessions = run.sessions();
    // Kimi Code's sessions are still there.
    expect(sessions.has('ses_01JNX7Q2')).toBe(true);
    const state = sessions.get(ID);
    expect(state).toMatchObject({
      cwd: '/home/dev/scraper',
      version: '1.10',
      resumeCommand: `kimi --resume ${ID}`,
      createdAt: T0,
      lastActivityAt: T0 + 10_000,
      userMessages: 1,
      assistantMessages: 2,
      lastFileWrite: '/home/dev/scraper/fetch.py',
      tokens: { input: 1800 + 200 + 100, output: 60 + 40 + 20, cacheCreation: 0, cacheRead: 1800 + 2000 },
    });
    expect(deriveActivity(state!, T0 + 60_000)).toBe('waiting');
    const mine = run.diagnostics().filter((d) => d.sessionId === ID);
    expect(mine.map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_UNKNOWN_RECORD']);
    expect(mine.find((d) => d.code === 'E_UNKNOWN_RECORD')).toMatchObject({ version: '1.10', message: expect.stringContaining('"FutureEvent"') });
    expect(run.events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent: 'kimi' }]);
  });

  it('a session Kimi Code carried over is read from Kimi Code only', async () => {
    await mkdir(path.join(fx.home.home, '.kimi-code', 'sessions', 'wd_scraper_71004', `session_${ID}`), { recursive: true });
    const run = await fx.once(kimi);
    expect(run.sessions().has(ID)).toBe(false);
    expect(run.sessions().has('ses_01JNX7Q2')).toBe(true);
  });

  it('paths: sessions/<folder>/<id>/wire.jsonl; folders from kimi.json; no second read of one tree', () => {
    expect(classifyKimiLegacyFile('/k/sessions', `/k/sessions/abc/${ID}/wire.jsonl`)).toEqual({ sessionId: ID, folder: 'abc' });
    expect(classifyKimiLegacyFile('/k/sessions', `/k/sessions/abc/${ID}/context.jsonl`)).toBeUndefined();
    expect(classifyKimiLegacyFile('/k/sessions', `/k/sessions/wd_a/${ID}/agents/main/wire.jsonl`)).toBeUndefined();
    const byFolder = readKimiLegacyMetadata(JSON.stringify({ work_dirs: [{ path: '/home/dev/scraper', kaos: 'local' }, { path: '/srv/app', kaos: 'ssh' }] }));
    expect(byFolder.get('7100434c3b4081fbf05d4aa43c1a6dcf')).toBe('/home/dev/scraper');
    expect([...byFolder.keys()].some((k) => k.startsWith('ssh_'))).toBe(true);
    expect(readKimiLegacyMetadata('not json').size).toBe(0);
    expect(kimiLegacyRoot({ HOME: '/h' })).toBe('/h/.kimi');
    // Kimi Code told to live in ~/.kimi: one tree, read once.
    expect(kimiLegacyRoot({ HOME: '/h', KIMI_SHARE_DIR: '/h/.kimi' })).toBeUndefined();
    expect(kimiLegacySpec(makeCtx({ HOME: '/h', KIMI_SHARE_DIR: '/h/.kimi' }))).toBeUndefined();
  });
});
