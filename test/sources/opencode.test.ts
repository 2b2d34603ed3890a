import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { mapFamilySession, type FamilySessionRow } from '../../src/sources/sqlite/opencode-family/map.js';
import { openFamilyReader } from '../../src/sources/sqlite/opencode-family/reader.js';
import { createSqlitePoller } from '../../src/sources/sqlite/poller.js';
import { activityAt, buildFixtureDb, foldSession, forSession, ofType } from './sqlite/helpers.js';

const NOW = 1773136400000;
const spec = { agent: 'opencode', label: 'OpenCode', resumeCommand: (id: string) => `opencode -s ${id}` } as const;
let dir = '';
let events: readonly SessionEvent[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-opencode-'));
  const file = path.join(dir, 'opencode.db');
  buildFixtureDb(file, 'opencode').close();
  const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: openFamilyReader(spec) });
  events = poller.poll(NOW);
  poller.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('opencode fixture database', () => {
  it('replays every session as reset + events, newest activity first, and ends the first poll with ready', () => {
    expect(ofType(events, 'reset').map((e) => e.sessionId)).toEqual(['ses_junk', 'ses_compact', 'ses_tests', 'ses_footer', 'ses_explore']);
    expect(events.at(-1)).toEqual({ type: 'ready', agent: 'opencode' });
  });

  it('a tool that finished and was followed by the answer reads waiting, with the file written and the recorded cost', () => {
    const footer = forSession(events, 'ses_footer');
    expect(footer.map((e) => e.type)).toEqual(['reset', 'meta', 'turn', 'tool_call', 'tool_result', 'turn', 'usage']);
    const state = foldSession(events, 'ses_footer');
    expect(state).toMatchObject({
      cwd: '/home/dev/site',
      agentName: 'Fix footer layout',
      version: '1.0.62',
      model: 'claude-sonnet-4-5',
      resumeCommand: 'opencode -s ses_footer',
      isSidechain: false,
      lastFileWrite: '/home/dev/site/css/footer.css',
      recordedCostUsd: 0.0183,
      tokens: { input: 1210, output: 250, cacheCreation: 1500, cacheRead: 8800 },
      userMessages: 1,
      assistantMessages: 1,
    });
    // The synthetic part is context opencode injected, not what the user typed.
    expect(state?.recentMessages[0]?.text).toBe('The footer overlaps on mobile');
    expect(activityAt(events, 'ses_footer', 1773136010000 + 15_000)).toBe('waiting');
    expect(activityAt(events, 'ses_footer', 1773136010000 + 5 * 60_000)).toBe('idle');
  });

  it('a running bash call reads running; a child session is a hidden sidechain with its parent', () => {
    expect(activityAt(events, 'ses_tests', 1773136104000 + 5_000)).toBe('running');
    expect(foldSession(events, 'ses_explore')).toMatchObject({ isSidechain: true, parentId: 'ses_footer' });
    expect(activityAt(events, 'ses_explore', 1773136006500 + 1_000)).toBe('reading');
  });

  it('time_compacting and the compaction request read compacting', () => {
    const compact = forSession(events, 'ses_compact');
    expect(ofType(compact, 'compaction').map((e) => [e.at, e.phase])).toEqual([
      [1773136199000, 'start'],
      [1773136200000, 'start'],
    ]);
    // The compaction request is not a prompt a person typed.
    expect(foldSession(events, 'ses_compact')?.userMessages).toBe(1);
    expect(activityAt(events, 'ses_compact', 1773136200000 + 5_000)).toBe('compacting');
  });

  it('bad rows are diagnostics and the rest of the session is still read, oversized text included', () => {
    const junk = forSession(events, 'ses_junk');
    const diagnostics = ofType(junk, 'diagnostic');
    expect(diagnostics.map((d) => d.code)).toEqual(['E_SCHEMA', 'E_SCHEMA', 'E_SCHEMA', 'E_SCHEMA']);
    expect(diagnostics.map((d) => d.message.split(':')[0])).toEqual(['part prt_j02b', 'part prt_j02c', 'message msg_j01', 'message msg_j03']);
    const prompt = ofType(junk, 'turn')[0];
    expect(prompt?.text?.length).toBe(300_000);
    // An aborted answer hands the turn back: waiting, with the error as its text.
    expect(ofType(junk, 'tool_result')[0]).toMatchObject({ isError: true });
    expect(ofType(junk, 'turn').at(-1)).toMatchObject({ role: 'assistant', counts: false, text: 'The operation was aborted.' });
    expect(activityAt(events, 'ses_junk', 1773136320000 + 20_000)).toBe('waiting');
  });
});

describe('mapFamilySession (rows in, events out)', () => {
  const session: FamilySessionRow = {
    id: 'ses_a', parent_id: null, directory: '/w', title: 'T', version: '1.0.0',
    time_created: 1000, time_updated: 9000, time_compacting: null, model: null,
  };
  const user = { id: 'm1', time_created: 1000, data: '{"role":"user","time":{"created":1000}}' };
  const userText = { id: 'p1', message_id: 'm1', time_created: 1000, time_updated: 1000, data: '{"type":"text","text":"go"}' };
  const run = (messages: object[], parts: object[]) =>
    mapFamilySession({ ...spec, dbPath: '/db' }, session, messages as never, parts as never).filter((e) => e.type !== 'meta');

  it('an assistant message still waiting for its tool ends on the call (the tool shows)', () => {
    const out = run(
      [user, { id: 'm2', time_created: 2000, data: '{"role":"assistant","time":{"created":2000},"finish":"tool-calls"}' }],
      [userText, { id: 'p2', message_id: 'm2', time_created: 2100, time_updated: 2100, data: '{"type":"tool","tool":"grep","callID":"c1","state":{"status":"pending","input":{"pattern":"x"}}}' }],
    );
    expect(out.map((e) => e.type)).toEqual(['turn', 'tool_call']);
    expect(activityAt(out, 'ses_a', 2100 + 1_000)).toBe('searching');
  });

  it('tool results without an answer yet read thinking (the model works on the next step)', () => {
    const out = run(
      [user, { id: 'm2', time_created: 2000, data: '{"role":"assistant","time":{"created":2000,"completed":20000},"finish":"tool-calls"}' }],
      [userText, { id: 'p2', message_id: 'm2', time_created: 2100, time_updated: 20000, data: '{"type":"tool","tool":"read","callID":"c1","state":{"status":"completed","input":{"filePath":"/w/a"},"time":{"start":2100,"end":20000}}}' }],
    );
    expect(out.map((e) => e.type)).toEqual(['turn', 'tool_call', 'tool_result']);
    // A read never counts as a file write.
    expect(ofType(out, 'tool_call')[0]?.filePath).toBeUndefined();
    expect(activityAt(out, 'ses_a', 2100 + 10_000)).toBe('reading');
    expect(activityAt(out, 'ses_a', 20000 + 15_000)).toBe('thinking');
  });

  it('a finished compaction summary ends the compaction and is not counted as a message', () => {
    const out = run(
      [{ id: 'm2', time_created: 2000, data: '{"role":"assistant","summary":true,"time":{"created":2000,"completed":5000},"finish":"stop"}' }],
      [{ id: 'p2', message_id: 'm2', time_created: 2000, time_updated: 4000, data: '{"type":"text","text":"Summary of the work so far"}' }],
    );
    expect(out.map((e) => e.type)).toEqual(['turn', 'compaction']);
    expect(ofType(out, 'turn')[0]?.counts).toBe(false);
    expect(ofType(out, 'compaction')[0]).toMatchObject({ phase: 'end', at: 5000 });
  });

  it('data stored as a BLOB is decoded like text', () => {
    const out = run([{ ...user, data: Buffer.from(user.data) }], [{ ...userText, data: Buffer.from(userText.data) }]);
    expect(ofType(out, 'turn')[0]).toMatchObject({ role: 'user', text: 'go' });
  });
});

describe('opencode paths', () => {
  it('honours OPENCODE_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share', () => {
    expect(opencodeDbPath({ HOME: '/h', OPENCODE_DATA_DIR: '/d', XDG_DATA_HOME: '/x' })).toBe('/d/opencode.db');
    expect(opencodeDbPath({ HOME: '/h', XDG_DATA_HOME: '/x' })).toBe('/x/opencode/opencode.db');
    expect(opencodeDbPath({ HOME: '/h' })).toBe('/h/.local/share/opencode/opencode.db');
  });

  it('honours OPENCODE_DB as OpenCode does: absolute as it is, relative inside the data directory, :memory: ignored', () => {
    expect(opencodeDbPath({ HOME: '/h', OPENCODE_DB: '/elsewhere/oc.db' })).toBe('/elsewhere/oc.db');
    expect(opencodeDbPath({ HOME: '/h', OPENCODE_DB: 'opencode-local.db' })).toBe('/h/.local/share/opencode/opencode-local.db');
    expect(opencodeDbPath({ HOME: '/h', OPENCODE_DATA_DIR: '/d', OPENCODE_DB: 'work.db' })).toBe('/d/work.db');
    expect(opencodeDbPath({ HOME: '/h', OPENCODE_DB: ':memory:' })).toBe('/h/.local/share/opencode/opencode.db');
    expect(opencodeDbPath({ HOME: '/h', OPENCODE_DB: '  ' })).toBe('/h/.local/share/opencode/opencode.db');
  });
});

describe('schemas of other opencode versions', () => {
  it('reads rows of the minimal schema with optional columns missing, instead of skipping them', () => {
    const file = path.join(dir, 'minimal.db');
    const db = new BetterSqlite3(file);
    db.exec(`CREATE TABLE session (id text PRIMARY KEY, directory text, title text);
      CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, data text NOT NULL);
      CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, data text NOT NULL);
      INSERT INTO session VALUES ('ses_min', '/w/min', NULL);
      INSERT INTO message VALUES ('msg_1', 'ses_min', '{"role":"user","time":{"created":5000}}');
      INSERT INTO part VALUES ('prt_1', 'msg_1', '{"type":"text","text":"hello"}');`);
    db.close();
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: openFamilyReader(spec) });
    const out = poller.poll(NOW);
    poller.close();
    expect(ofType(out, 'diagnostic')).toEqual([]);
    expect(foldSession(out, 'ses_min')).toMatchObject({ cwd: '/w/min', agentName: '', userMessages: 1, lastTurn: 'user', lastTurnAt: 5000 });
  });

  it('a missing table or required column is E_DB_SCHEMA naming it', () => {
    const file = path.join(dir, 'newer.db');
    const db = new BetterSqlite3(file);
    db.exec(`CREATE TABLE session (id text PRIMARY KEY); CREATE TABLE message (id text PRIMARY KEY, session_id text, payload text);`);
    db.close();
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: openFamilyReader(spec) });
    const out = poller.poll(NOW);
    expect(ofType(out, 'diagnostic')).toEqual([
      expect.objectContaining({ code: 'E_DB_SCHEMA', message: expect.stringMatching(/^OpenCode: .*table "message" has no column "data"/) }),
    ]);
    poller.close();
  });
});
