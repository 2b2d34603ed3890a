import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { kiloDbPath } from '../../src/sources/kilo/paths.js';
import { openFamilyReader } from '../../src/sources/sqlite/opencode-family/reader.js';
import { createSqlitePoller } from '../../src/sources/sqlite/poller.js';
import { activityAt, buildFixtureDb, foldSession, forSession, ofType } from './sqlite/helpers.js';

const NOW = 1773137300000;
let dir = '';
let events: readonly SessionEvent[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-kilo-'));
  const file = path.join(dir, 'kilo.db');
  buildFixtureDb(file, 'kilo').close();
  const poller = createSqlitePoller({
    agent: 'kilo',
    label: 'Kilo',
    dbPath: file,
    openReader: openFamilyReader({ agent: 'kilo', label: 'Kilo', resumeCommand: (id) => `kilo --session=${id}` }),
  });
  events = poller.poll(NOW);
  poller.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kilo fixture database (Kilo 7.3.12 schema)', () => {
  it('reads every session, newest activity first, with no diagnostics', () => {
    expect(ofType(events, 'reset').map((e) => e.sessionId)).toEqual(['ses_k_apply', 'ses_k_child', 'ses_k_spawn', 'ses_k_main']);
    expect(ofType(events, 'diagnostic')).toEqual([]);
  });

  it('write then answer: waiting, last file written, cost and tokens (reasoning counted as output)', () => {
    expect(forSession(events, 'ses_k_main').map((e) => e.type)).toEqual(['reset', 'meta', 'turn', 'tool_call', 'tool_result', 'turn', 'usage']);
    expect(foldSession(events, 'ses_k_main')).toMatchObject({
      agent: 'kilo',
      model: 'grok-4.3',
      resumeCommand: 'kilo --session=ses_k_main',
      lastFileWrite: '/home/dev/kiosk/src/OfflineBanner.tsx',
      recordedCostUsd: 0.004,
      tokens: { input: 2000, output: 250, cacheCreation: 0, cacheRead: 60 },
    });
    expect(activityAt(events, 'ses_k_main', 1773137031000 + 30_000)).toBe('waiting');
  });

  it('a running task call reads spawning for minutes; its child session is hidden', () => {
    expect(activityAt(events, 'ses_k_spawn', 1773137104000 + 5 * 60_000)).toBe('spawning');
    // The child's messages carry no model: the session row's model JSON names it.
    expect(foldSession(events, 'ses_k_child')).toMatchObject({ isSidechain: true, parentId: 'ses_k_spawn', model: 'claude-haiku-4-5' });
  });

  it('a finished message whose last part is a tool hands the turn back (waiting), apply_patch names the file', () => {
    const apply = forSession(events, 'ses_k_apply');
    expect(ofType(apply, 'tool_call')[0]).toMatchObject({ name: 'apply_patch', filePath: '/home/dev/kiosk/src/App.tsx' });
    expect(ofType(apply, 'turn').at(-1)).toMatchObject({ role: 'assistant', counts: false, at: 1773137206000 });
    expect(foldSession(events, 'ses_k_apply')?.assistantMessages).toBe(0);
    expect(activityAt(events, 'ses_k_apply', 1773137206000 + 40_000)).toBe('waiting');
  });
});

describe('kilo paths', () => {
  it('honours KILO_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share', () => {
    expect(kiloDbPath({ HOME: '/h', KILO_DATA_DIR: '/k', XDG_DATA_HOME: '/x' })).toBe('/k/kilo.db');
    expect(kiloDbPath({ HOME: '/h', XDG_DATA_HOME: '/x' })).toBe('/x/kilo/kilo.db');
    expect(kiloDbPath({ HOME: '/h' })).toBe('/h/.local/share/kilo/kilo.db');
  });
});
