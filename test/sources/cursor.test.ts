import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { commonDirectory, fileUriToPath } from '../../src/sources/cursor/file-uri.js';
import { mapCursorComposer } from '../../src/sources/cursor/map.js';
import { cursorDbPath } from '../../src/sources/cursor/paths.js';
import { CURSOR_WINDOW_MS, openCursorReader } from '../../src/sources/cursor/reader.js';
import { writtenFile } from '../../src/sources/cursor/tools.js';
import { createSqlitePoller, type SqlitePoller } from '../../src/sources/sqlite/poller.js';
import { activityAt, buildFixtureDb, foldSession, forSession, ofType } from './sqlite/helpers.js';

const NOW = 1773137700000;
const DEBOUNCE = '9c1e7a52-3f0b-4d8e-a1c2-5b6d7e8f9a01';
const E2E = '2b7d0c11-aaaa-4bbb-8ccc-000000000002';
const RENAME = '3c8e1d22-bbbb-4ccc-9ddd-000000000003';
const OLD = '4d9f2e33-cccc-4ddd-aeee-000000000004';
const BROKEN = '5e0a3f44-dddd-4eee-bfff-000000000005';

let dir = '';
let writer: Database;
let poller: SqlitePoller;
let events: readonly SessionEvent[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-cursor-'));
  const file = path.join(dir, 'state.vscdb');
  writer = buildFixtureDb(file, 'cursor');
  poller = createSqlitePoller({ agent: 'cursor', label: 'Cursor', dbPath: file, openReader: openCursorReader });
  events = poller.poll(NOW);
});
afterAll(() => {
  poller.close();
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('cursor fixture database', () => {
  it('lists composers of the last 48 h that have a conversation; a broken composer is a diagnostic', () => {
    expect(ofType(events, 'reset').map((e) => e.sessionId).sort()).toEqual([E2E, RENAME, DEBOUNCE].sort());
    expect(forSession(events, OLD)).toEqual([]);
    expect(ofType(events, 'diagnostic').map((d) => [d.sessionId, d.code])).toEqual([
      [BROKEN, 'E_SCHEMA'],
      [RENAME, 'E_SCHEMA'],
    ]);
  });

  it('read, then answer: waiting; cwd percent-decoded; tokens summed; title, model and resume command', () => {
    expect(forSession(events, DEBOUNCE).map((e) => e.type)).toEqual(['reset', 'meta', 'turn', 'tool_call', 'tool_result', 'usage', 'turn', 'usage']);
    expect(foldSession(events, DEBOUNCE)).toMatchObject({
      cwd: '/Users/dev/shop ui',
      agentName: 'Debounce search input',
      model: 'claude-4.5-sonnet',
      resumeCommand: `cursor-agent --resume="${DEBOUNCE}"`,
      userMessages: 1,
      assistantMessages: 1,
      tokens: { input: 5800, output: 200, cacheCreation: 0, cacheRead: 0 },
    });
    expect(activityAt(events, DEBOUNCE, Date.parse('2026-03-10T10:10:12.000Z') + 20_000)).toBe('waiting');
  });

  it('values stored as BLOBs decode; a terminal command still loading reads running', () => {
    expect(foldSession(events, E2E)).toMatchObject({ cwd: '/home/dev/café-app', agentName: 'Run the e2e suite' });
    expect(activityAt(events, E2E, Date.parse('2026-03-10T10:11:46.000Z') + 3_000)).toBe('running');
  });

  it('an edit Cursor marked completed without an answer bubble reads waiting; its file is absolute', () => {
    const state = foldSession(events, RENAME);
    expect(state).toMatchObject({ cwd: '/srv/www/portal', lastFileWrite: '/srv/www/portal/src/Menu.tsx', assistantMessages: 0 });
    expect(activityAt(events, RENAME, 1773137609000 + 60_000)).toBe('waiting');
  });

  it('polls with nothing changed emit nothing; a new bubble replays only its composer', () => {
    expect(poller.poll(NOW)).toEqual([]);
    const bubble = { bubbleId: 'd-4', type: 2, text: 'Renamed it in Menu.tsx.', createdAt: '2026-03-10T10:13:40.000Z' };
    writer.prepare(`INSERT INTO cursorDiskKV VALUES (?, ?)`).run(`bubbleId:${RENAME}:d-4`, JSON.stringify(bubble));
    writer
      .prepare(`INSERT INTO cursorDiskKV VALUES (?, ?)`)
      .run(
        `composerData:${RENAME}`,
        JSON.stringify({
          composerId: RENAME, name: 'Rename prop', createdAt: 1773137600000, lastUpdatedAt: 1773137620000, status: 'completed',
          fullConversationHeadersOnly: ['d-1', 'd-2', 'd-3', 'd-9', 'd-4'].map((bubbleId) => ({ bubbleId, type: bubbleId === 'd-1' ? 1 : 2 })),
        }),
      );
    const next = poller.poll(NOW);
    expect(ofType(next, 'reset').map((e) => e.sessionId)).toEqual([RENAME]);
    // The junk bubble was already reported: a replay does not count it again.
    expect(ofType(next, 'diagnostic')).toEqual([]);
    expect(foldSession(next, RENAME)).toMatchObject({ assistantMessages: 1, lastTurn: 'assistant' });
  });

  it('a composer row whose value is NULL (every real database has some) is skipped without a diagnostic', () => {
    const empty = '6f1b4a55-eeee-4fff-8000-000000000006';
    writer.prepare(`INSERT INTO cursorDiskKV VALUES (?, NULL)`).run(`composerData:${empty}`);
    const next = poller.poll(NOW);
    expect(ofType(next, 'diagnostic')).toEqual([]);
    expect(forSession(next, empty)).toEqual([]);
  });

  it('a composer ageing past 48 h is dropped at the next change', () => {
    writer.prepare(`INSERT INTO ItemTable VALUES ('some.ui.state', '1')`).run();
    const later = poller.poll(1773137412000 + CURSOR_WINDOW_MS + 1);
    expect(ofType(later, 'removed').map((e) => e.sessionId)).toEqual([DEBOUNCE]);
  });

  it('with relistAfterMs, a composer ageing out is dropped without any write', () => {
    const quiet = createSqlitePoller({ agent: 'cursor', label: 'Cursor', dbPath: path.join(dir, 'state.vscdb'), openReader: openCursorReader, relistAfterMs: 600_000 });
    try {
      expect(ofType(quiet.poll(NOW), 'reset').map((e) => e.sessionId)).toContain(E2E);
      expect(quiet.poll(NOW + 1_000)).toEqual([]);
      const aged = quiet.poll(1773137550000 + CURSOR_WINDOW_MS + 1);
      expect(ofType(aged, 'removed').map((e) => e.sessionId)).toContain(E2E);
    } finally {
      quiet.close();
    }
  });
});

describe('mapCursorComposer (records in, events out)', () => {
  const record = (bubbleId: string, value: object) => ({ bubbleId, json: { ok: true as const, value }, raw: JSON.stringify(value) });

  it('a tool bubble with words says them before the call; an errored tool is a failed result', () => {
    const out = mapCursorComposer({ dbPath: '/db' }, 'c2', { status: 'generating' }, [
      record('a', { type: 1, text: 'fix it', createdAt: '2026-03-10T10:00:00.000Z' }),
      record('b', { type: 2, text: 'Let me look.', createdAt: '2026-03-10T10:00:02.000Z', toolFormerData: { name: 'grep_search', status: 'error', toolCallId: 't1' } }),
      record('c', { type: 2, text: '', createdAt: '2026-03-10T10:00:03.000Z', toolFormerData: { name: 'codebase_search', status: 'loading', toolCallId: 't2' } }),
    ]);
    expect(out.filter((e) => e.type !== 'meta').map((e) => e.type)).toEqual(['turn', 'turn', 'tool_call', 'tool_result', 'tool_call']);
    expect(ofType(out, 'tool_result')[0]?.isError).toBe(true);
    expect(activityAt(out, 'c2', Date.parse('2026-03-10T10:00:03.000Z') + 2_000)).toBe('searching');
  });

  it("the last activity is the newest of the composer's last update and its bubbles' times; the bubbles still decide the activity", () => {
    const answeredAt = Date.parse('2026-03-10T10:00:00.000Z');
    const out = mapCursorComposer({ dbPath: '/db' }, 'c3', { status: 'completed', createdAt: answeredAt - 3 * 3_600_000, lastUpdatedAt: answeredAt + 70_000 }, [
      record('a', { type: 1, text: 'why is it slow' }),
      record('b', { type: 2, text: 'The index is missing.', timingInfo: { clientStartTime: answeredAt - 20_000, clientEndTime: answeredAt } }),
    ]);
    // A first bubble without a time of its own is dated by the composer's creation, as a floor.
    expect(ofType(out, 'turn').map((e) => e.at)).toEqual([answeredAt - 3 * 3_600_000, answeredAt]);
    const state = foldSession(out, 'c3');
    expect(state?.lastActivityAt).toBe(answeredAt + 70_000);
    expect(state?.lastTurnAt).toBe(answeredAt);
    expect(activityAt(out, 'c3', answeredAt + 100_000)).toBe('waiting');
    expect(activityAt(out, 'c3', answeredAt + 130_000)).toBe('idle');
  });

  it('is never the creation time: a composer with no time but its creation has no known activity (not listed)', () => {
    const out = mapCursorComposer({ dbPath: '/db' }, 'c4', { createdAt: 1_773_136_000_000 }, [record('a', { type: 1, text: 'hello' }), record('b', { type: 2, text: 'hi' })]);
    expect(foldSession(out, 'c4')).toMatchObject({ lastActivityAt: 0, createdAt: 1_773_136_000_000, userMessages: 1, assistantMessages: 1 });
  });

  it('reads the older format with bubbles inline in the composer', () => {
    const out = mapCursorComposer({ dbPath: '/db' }, 'c1', {
      conversation: [
        { bubbleId: 'x', type: 1, text: 'hi', createdAt: 1000 },
        { bubbleId: 'y', type: 2, text: 'hello', createdAt: 2000 },
      ],
    }, [
      { bubbleId: 'x', json: { ok: true, value: { type: 1, text: 'hi', createdAt: 1000 } }, raw: '' },
      { bubbleId: 'y', json: { ok: true, value: { type: 2, text: 'hello', createdAt: 2000 } }, raw: '' },
    ]);
    expect(ofType(out, 'turn').map((e) => [e.role, e.at])).toEqual([
      ['user', 1000],
      ['assistant', 2000],
    ]);
  });
});

describe('file URIs and paths', () => {
  it('percent-decodes file:// URIs, keeping malformed escapes', () => {
    expect(fileUriToPath('file:///home/dev/my%20app')).toBe('/home/dev/my app');
    expect(fileUriToPath('file:///c%3A/Users/dev')).toBe('c:/Users/dev');
    expect(fileUriToPath('file:///home/dev/100%')).toBe('/home/dev/100%');
  });

  it('the common directory of quoted URIs needs two levels', () => {
    expect(commonDirectory('"file:///w/app/src/a.ts" "file:///w/app/b.ts"')).toBe('/w/app');
    expect(commonDirectory('"file:///a.ts" "file:///w/b.ts"')).toBeUndefined();
    expect(commonDirectory('no uris')).toBeUndefined();
  });

  it('only writing tools name a written file', () => {
    expect(writtenFile('edit_file', '{"target_file":"src/a.ts"}', undefined, '/w')).toBe('/w/src/a.ts');
    expect(writtenFile('Write_to_file_v2', undefined, { file_path: 'file:///w/a%20b.ts' }, undefined)).toBe('/w/a b.ts');
    expect(writtenFile('read_file', '{"target_file":"/w/a.ts"}', undefined, '/w')).toBeUndefined();
  });

  it('state.vscdb lives under Application Support on macOS and XDG_CONFIG_HOME on Linux', () => {
    const env = { HOME: '/h', XDG_CONFIG_HOME: '/x' };
    expect(cursorDbPath(env, 'darwin')).toBe('/h/Library/Application Support/Cursor/User/globalStorage/state.vscdb');
    expect(cursorDbPath(env, 'linux')).toBe('/x/Cursor/User/globalStorage/state.vscdb');
    expect(cursorDbPath({ HOME: '/h' }, 'linux')).toBe('/h/.config/Cursor/User/globalStorage/state.vscdb');
  });
});

describe("Cursor 3.x's composer index", () => {
  /** The fixture database plus Cursor's composer index, in either of the two places Cursor keeps it. */
  const withIndex = (name: string, write: (db: Database) => void): SessionEvent[] => {
    const file = path.join(dir, `${name}.vscdb`);
    const db = buildFixtureDb(file, 'cursor');
    try {
      write(db);
      const indexed = createSqlitePoller({ agent: 'cursor', label: 'Cursor', dbPath: file, openReader: openCursorReader });
      try {
        return [...indexed.poll(NOW)];
      } finally {
        indexed.close();
      }
    } finally {
      db.close();
    }
  };
  const allComposers = [
    { composerId: E2E, isSubagent: true, workspaceIdentifier: { id: 'w1', uri: { fsPath: '/home/dev/café-app' } }, createdAt: 1773137500000 },
    { composerId: RENAME, workspaceIdentifier: { id: 'w2', uri: { fsPath: '/srv/www/portal-root' } } },
    { composerId: 42 },
  ];

  it('from ItemTable: a sub-agent composer is a hidden sidechain; the index names the folder of a composer whose bubbles do not', () => {
    const indexed = withIndex('item-index', (db) => {
      db.prepare(`INSERT INTO ItemTable VALUES ('composer.composerHeaders', ?)`).run(JSON.stringify({ allComposers }));
    });
    expect(foldSession(indexed, E2E)).toMatchObject({ isSidechain: true });
    expect(foldSession(indexed, DEBOUNCE)).toMatchObject({ isSidechain: false, cwd: '/Users/dev/shop ui' });
    // Its bubbles name no workspace: the index's folder, not one guessed from the files they mention.
    expect(foldSession(indexed, RENAME)?.cwd).toBe('/srv/www/portal-root');
    expect(foldSession(events, RENAME)?.cwd).toBe('/srv/www/portal');
  });

  it('from the composerHeaders table of later builds, and a bad index is as if there were none', () => {
    const table = withIndex('table-index', (db) => {
      db.exec('CREATE TABLE composerHeaders (composerId TEXT PRIMARY KEY, workspaceId TEXT, createdAt INTEGER, lastUpdatedAt INTEGER, isArchived INTEGER, isSubagent INTEGER, value TEXT)');
      const insert = db.prepare('INSERT INTO composerHeaders (composerId, isSubagent, value) VALUES (?, ?, ?)');
      insert.run(E2E, 1, JSON.stringify(allComposers[0]));
      insert.run(RENAME, 0, JSON.stringify(allComposers[1]));
    });
    expect(foldSession(table, E2E)?.isSidechain).toBe(true);
    expect(foldSession(table, RENAME)).toMatchObject({ isSidechain: false, cwd: '/srv/www/portal-root' });
    const broken = withIndex('bad-index', (db) => {
      db.prepare(`INSERT INTO ItemTable VALUES ('composer.composerHeaders', ?)`).run('{"allComposers": "not a list"');
    });
    expect(foldSession(broken, E2E)?.isSidechain).toBe(false);
    expect(ofType(broken, 'reset').map((e) => e.sessionId).sort()).toEqual([E2E, RENAME, DEBOUNCE].sort());
  });
});
