import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionEvent } from '../../src/core/session.js';
import type { DoctorReport } from '../../src/doctor/report.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { mapFamilyV2Session, type FamilySessionRow } from '../../src/sources/sqlite/opencode-family/map.js';
import { openFamilyReader } from '../../src/sources/sqlite/opencode-family/reader.js';
import { createSqlitePoller } from '../../src/sources/sqlite/poller.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { activityAt, fixtureSql, foldSession, forSession, ofType } from './sqlite/helpers.js';

// OpenCode 2.x keeps sessions in `session_v2` and messages in `session_message` (fixtures/opencode/v2-*.sql).
const spec = { agent: 'opencode', label: 'OpenCode', resumeCommand: (id: string) => `opencode -s ${id}` } as const;
let dir = '';
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-opencode2-'));
});

/** A real database file built from fixture SQL files, then one poll of it. */
const pollOf = (name: string, files: readonly Parameters<typeof fixtureSql>[1][], now: number): SessionEvent[] => {
  const file = path.join(dir, `${name}.db`);
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  for (const sql of files) db.exec(fixtureSql('opencode', sql));
  db.close();
  const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: openFamilyReader(spec) });
  try {
    return [...poller.poll(now)];
  } finally {
    poller.close();
  }
};

describe('an OpenCode 2.x database (a fresh install: no 1.x tables)', () => {
  let events: SessionEvent[] = [];
  beforeAll(() => {
    events = pollOf('fresh', ['v2-schema', 'v2-data'], 1790000500000);
  });

  it('lists every session of session_v2 and reads no 1.x table', () => {
    expect(ofType(events, 'reset').map((e) => e.sessionId).sort()).toEqual(['ses_build', 'ses_child', 'ses_compact', 'ses_junk', 'ses_rename', 'ses_shell']);
    expect(ofType(events, 'diagnostic').filter((d) => d.code === 'E_DB_SCHEMA')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'ready', agent: 'opencode' });
  });

  it('an edit that finished, then the answer: waiting, with the file written, the usage and the model', () => {
    expect(forSession(events, 'ses_rename').map((e) => e.type)).toEqual(['reset', 'meta', 'turn', 'thinking', 'tool_call', 'tool_result', 'turn', 'usage']);
    expect(foldSession(events, 'ses_rename')).toMatchObject({
      cwd: '/home/dev/api',
      agentName: 'Rename the config loader',
      version: '2.0.12',
      model: 'claude-sonnet-4-5',
      lastFileWrite: '/home/dev/api/src/config.ts',
      recordedCostUsd: 0.0123,
      tokens: { input: 1200, output: 300, cacheCreation: 800, cacheRead: 5000 },
      userMessages: 1,
      assistantMessages: 1,
      resumeCommand: 'opencode -s ses_rename',
    });
    expect(foldSession(events, 'ses_rename')?.recentMessages.map((m) => m.text)).toEqual([
      'Rename loadConfig to readConfig everywhere',
      'Renamed loadConfig to readConfig in src/config.ts and its two callers.',
    ]);
    // The answer text comes after the tool finished, and it is given when the message completes
    // (the text has no time of its own in 2.x): the waiting grace and the idle timer run from then.
    const answer = ofType(forSession(events, 'ses_rename'), 'turn').at(-1);
    expect(answer?.at).toBe(1790000015000);
    expect(activityAt(events, 'ses_rename', 1790000015000 + 5_000)).toBe('thinking');
    expect(activityAt(events, 'ses_rename', 1790000015000 + 30_000)).toBe('waiting');
    expect(activityAt(events, 'ses_rename', 1790000015000 + 110_000)).toBe('waiting');
    expect(activityAt(events, 'ses_rename', 1790000015000 + 5 * 60_000)).toBe('idle');
  });

  it('reasoning alone reads thinking; a running bash call reads running; a model switch names the model', () => {
    expect(activityAt(events, 'ses_rename', 1790000002000 + 1_000)).toBe('thinking');
    expect(activityAt(events, 'ses_build', 1790000104000 + 5_000)).toBe('running');
    expect(foldSession(events, 'ses_build')?.model).toBe('claude-opus-4-1');
  });

  it('a child session is a hidden sidechain, and its pending read (input still raw text) reads reading', () => {
    expect(foldSession(events, 'ses_child')).toMatchObject({ isSidechain: true, parentId: 'ses_rename', model: 'claude-haiku-4-5' });
    expect(activityAt(events, 'ses_child', 1790000003900 + 2_000)).toBe('reading');
  });

  it('a compaction written with an empty summary is under way; a synthetic message is not a prompt', () => {
    const compact = forSession(events, 'ses_compact');
    expect(ofType(compact, 'compaction').map((e) => [e.at, e.phase])).toEqual([[1790000203000, 'start']]);
    expect(activityAt(events, 'ses_compact', 1790000203000 + 5_000)).toBe('compacting');
    expect(foldSession(events, 'ses_compact')?.userMessages).toBe(1);
  });

  it('a shell command the person ran reads running until it completes', () => {
    expect(ofType(forSession(events, 'ses_shell'), 'tool_call')).toEqual([expect.objectContaining({ name: 'bash', callId: 'sh_01', at: 1790000301000 })]);
    expect(activityAt(events, 'ses_shell', 1790000301000 + 5_000)).toBe('running');
  });

  it('bad rows and unknown kinds are diagnostics; the rest of the session is still read', () => {
    const junk = forSession(events, 'ses_junk');
    const diagnostics = ofType(junk, 'diagnostic');
    expect(diagnostics.map((d) => [d.code, d.message.split(':')[0]])).toEqual([
      ['E_SCHEMA', 'message msg_j02'],
      ['E_UNKNOWN_RECORD', expect.stringContaining('whiteboard')],
      ['E_UNKNOWN_RECORD', expect.stringContaining('hologram')],
    ]);
    expect(ofType(junk, 'turn')[0]?.text?.length).toBe(300_000);
    expect(ofType(junk, 'tool_result')[0]).toMatchObject({ isError: true });
    // The aborted answer hands the turn back, with its error as the text.
    expect(ofType(junk, 'turn').at(-1)).toMatchObject({ role: 'assistant', counts: false, text: 'The operation was aborted.' });
    expect(activityAt(events, 'ses_junk', 1790000406000 + 20_000)).toBe('waiting');
  });
});

describe('a 1.x database upgraded to 2.x (both generations in one file)', () => {
  let events: SessionEvent[] = [];
  beforeAll(() => {
    events = pollOf('upgraded', ['schema', 'data', 'v2-schema', 'v2-upgraded'], 1773136400000);
  });

  it('a migrated session is read once, from session_message: its usage is not counted twice', () => {
    expect(ofType(events, 'reset').filter((e) => e.sessionId === 'ses_footer')).toHaveLength(1);
    expect(foldSession(events, 'ses_footer')).toMatchObject({
      tokens: { input: 1210, output: 250, cacheCreation: 1500, cacheRead: 8800 },
      recordedCostUsd: 0.0183,
      lastFileWrite: '/home/dev/site/css/footer.css',
      userMessages: 1,
    });
    expect(ofType(forSession(events, 'ses_footer'), 'thinking')).toHaveLength(1);
  });

  it('sessions the migration did not copy are still read from the 1.x tables, and new ones from 2.x', () => {
    const ids = ofType(events, 'reset').map((e) => e.sessionId).sort();
    expect(ids).toEqual(['ses_after', 'ses_compact', 'ses_explore', 'ses_footer', 'ses_junk', 'ses_tests']);
    expect(foldSession(events, 'ses_tests')?.userMessages).toBe(1);
    expect(foldSession(events, 'ses_after')).toMatchObject({ version: '2.0.12', userMessages: 1, agentName: 'After the upgrade' });
  });
});

describe('a database that OpenCode upgrades while it is watched', () => {
  it('the migration is seen at the next poll: sessions written to the new tables appear', () => {
    const file = path.join(dir, 'live.db');
    const db = new BetterSqlite3(file);
    db.pragma('journal_mode = WAL');
    db.exec(fixtureSql('opencode', 'schema'));
    db.exec(fixtureSql('opencode', 'data'));
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: openFamilyReader(spec) });
    try {
      const before = poller.poll(1773136400000);
      expect(ofType(before, 'reset').map((e) => e.sessionId)).not.toContain('ses_after');
      db.exec(fixtureSql('opencode', 'v2-schema'));
      db.exec(fixtureSql('opencode', 'v2-upgraded'));
      const after = poller.poll(1773136400000 + 3_000);
      // Every session's stamp now has its 2.x part: each is replayed once, and the new one appears.
      expect(ofType(after, 'reset').map((e) => e.sessionId).sort()).toEqual(['ses_after', 'ses_compact', 'ses_explore', 'ses_footer', 'ses_junk', 'ses_tests']);
      expect(foldSession(after, 'ses_after')?.agentName).toBe('After the upgrade');
      // Nothing changes after that: a poll with no commit reads nothing.
      expect(poller.poll(1773136400000 + 6_000)).toEqual([]);
      expect(ofType(after, 'diagnostic')).toEqual([]);
    } finally {
      poller.close();
      db.close();
    }
  });
});

describe('agentwatch on a HOME whose OpenCode is 2.x', { timeout: 60_000 }, () => {
  it('`sessions` lists its sessions with their activity and usage, and `doctor` names the version', async () => {
    const home = await makeTempHome('agentwatch-opencode2-');
    try {
      const file = opencodeDbPath(home.env);
      mkdirSync(path.dirname(file), { recursive: true });
      const db = new BetterSqlite3(file);
      db.pragma('journal_mode = WAL');
      db.exec(fixtureSql('opencode', 'v2-schema'));
      db.exec(fixtureSql('opencode', 'v2-data'));
      db.close();
      const run = await runCli(['sessions', '--agent', 'opencode', '--all', '--json'], { env: home.env, timeoutMs: 30_000 });
      expect(run.code).toBe(0);
      const listed = JSON.parse(run.stdout) as SessionDetail[];
      // The sub-agent's session stays hidden.
      expect(listed.map((s) => s.session_id).sort()).toEqual(['ses_build', 'ses_compact', 'ses_junk', 'ses_rename', 'ses_shell']);
      expect(listed.find((s) => s.session_id === 'ses_rename')).toMatchObject({
        agent: 'opencode',
        cwd: '/home/dev/api',
        model: 'claude-sonnet-4-5',
        input_tokens: 1200,
        output_tokens: 300,
        last_file_write: '/home/dev/api/src/config.ts',
      });
      const doctor = await runCli(['doctor', '--json'], { env: home.env, timeoutMs: 60_000 });
      const report = JSON.parse(doctor.stdout) as DoctorReport;
      const opencode = report.agents.find((a) => a.agent === 'opencode');
      expect(opencode?.versions).toEqual(['2.0.12']);
      expect(opencode?.diagnostic_counts_by_version['2.0.12']).toMatchObject({ unknown_record: 2 });
    } finally {
      await home.cleanup();
    }
  });
});

describe('mapFamilyV2Session (rows in, events out)', () => {
  const session: FamilySessionRow = {
    id: 'ses_a', parent_id: null, directory: '/w', title: 'T', version: '2.0.0-beta.7',
    time_created: 1000, time_updated: 1000, time_compacting: null, model: '{"id":"gpt-5","providerID":"openai"}',
  };
  const row = (id: string, type: string, data: object, at = 1000) => ({ id, type, time_created: at, time_updated: at, data: JSON.stringify(data) });
  const run = (rows: ReturnType<typeof row>[]) => mapFamilyV2Session({ ...spec, dbPath: '/db' }, session, rows);

  it('reads the shapes other 2.0 releases wrote: ISO times, a bare model id, an error string, a finished compaction', () => {
    const out = run([
      row('m1', 'user', { text: [{ type: 'text', text: 'go' }], time: { created: '2026-09-01T10:00:00.000Z' } }),
      row('m2', 'assistant', { model: 'glm-4.6', content: [{ type: 'text', id: 't', text: 'done' }], error: 'rate limited', time: { created: Date.parse('2026-09-01T10:00:01Z') } }),
      row('m3', 'compaction', { reason: 'manual', summary: 'what happened so far', time: { created: 5000, completed: 6000 } }),
    ]);
    expect(ofType(out, 'turn').map((t) => [t.role, t.at, t.text])).toEqual([
      ['user', Date.parse('2026-09-01T10:00:00.000Z'), 'go'],
      ['assistant', Date.parse('2026-09-01T10:00:01Z'), 'done'],
    ]);
    expect(ofType(out, 'meta')[0]?.patch.model).toBe('glm-4.6');
    expect(ofType(out, 'compaction').map((c) => [c.phase, c.at])).toEqual([['start', 5000], ['end', 6000]]);
    expect(ofType(out, 'diagnostic')).toEqual([]);
  });

  it('a session without messages still lists, with the model of its row', () => {
    const out = run([]);
    expect(out.map((e) => e.type)).toEqual(['meta']);
    expect(ofType(out, 'meta')[0]?.patch).toMatchObject({ model: 'gpt-5', version: '2.0.0-beta.7', cwd: '/w' });
  });

  it('a tool call that has not finished and a later one that failed: the pending call decides until its result', () => {
    const out = run([
      row('m1', 'assistant', {
        content: [
          { type: 'tool', id: 'c1', name: 'grep', state: { status: 'running', input: { pattern: 'x' } }, time: { created: 2000 } },
          { type: 'tool', id: 'c2', name: 'webfetch', state: { status: 'error', input: { url: 'https://x' } }, time: { created: 2100, completed: 2200 } },
        ],
        finish: 'tool-calls',
        time: { created: 1900 },
      }),
    ]);
    expect(ofType(out, 'tool_result').map((r) => [r.callId, r.isError])).toEqual([['c2', true]]);
    expect(activityAt(out, 'ses_a', 2500)).toBe('searching');
  });
});

describe('both message stores beside each other (late 1.x releases, Kilo)', () => {
  /** The 1.x fixture database plus a `session_message` table whose `seq` may be NULL, as Kilo's is. */
  const mixed = (name: string, rows: readonly (readonly [string, string, string, number | null, number, object])[]): SessionEvent[] => {
    const file = path.join(dir, `${name}.db`);
    const db = new BetterSqlite3(file);
    db.exec(fixtureSql('opencode', 'schema'));
    db.exec(fixtureSql('opencode', 'data'));
    db.exec('CREATE TABLE session_message (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, seq integer, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL)');
    const insert = db.prepare('INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const [id, session, type, seq, at, data] of rows) insert.run(id, session, type, seq, at, at, JSON.stringify(data));
    db.close();
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: openFamilyReader(spec) });
    try {
      return [...poller.poll(1773136400000)];
    } finally {
      poller.close();
    }
  };

  it('a session_message row that carries nothing (an agent switch) does not hide the session\'s 1.x messages', () => {
    const events = mixed('switch-only', [['msg_x1', 'ses_footer', 'agent-switched', 1, 1773136000100, { agent: 'plan', time: { created: 1773136000100 } }]]);
    expect(foldSession(events, 'ses_footer')).toMatchObject({
      userMessages: 1,
      assistantMessages: 1,
      tokens: { input: 1210, output: 250, cacheCreation: 1500, cacheRead: 8800 },
      lastFileWrite: '/home/dev/site/css/footer.css',
    });
  });

  it('messages split over both stores are all read, a copied one once, in the order they were written; rows without seq are not read', () => {
    const events = mixed('split', [
      // The 1.x answer again, copied with its id (its usage must count once).
      ['msg_f02', 'ses_footer', 'assistant', 2, 1773136003000, { model: { id: 'claude-sonnet-4-5' }, content: [{ type: 'text', id: 't', text: 'The footer is sticky now.' }], finish: 'stop', cost: 0.0183, tokens: { input: 1210, output: 240, reasoning: 10, cache: { read: 8800, write: 1500 } }, time: { created: 1773136003000, completed: 1773136012000 } }],
      // A later prompt and answer only in session_message.
      ['msg_f03', 'ses_footer', 'user', 3, 1773136100000, { text: 'Now the header', time: { created: 1773136100000 } }],
      ['msg_f04', 'ses_footer', 'assistant', 4, 1773136101000, { model: { id: 'claude-opus-4-1' }, content: [{ type: 'text', id: 't2', text: 'Header fixed.' }], finish: 'stop', tokens: { input: 100, output: 20, reasoning: 0, cache: { read: 0, write: 0 } }, time: { created: 1773136101000, completed: 1773136102000 } }],
      // A row Kilo itself does not read back (no seq).
      ['msg_f05', 'ses_footer', 'user', null, 1773136200000, { text: 'never shown', time: { created: 1773136200000 } }],
    ]);
    const footer = foldSession(events, 'ses_footer');
    expect(footer).toMatchObject({
      userMessages: 2,
      assistantMessages: 2,
      model: 'claude-opus-4-1',
      tokens: { input: 1210 + 100, output: 250 + 20, cacheCreation: 1500, cacheRead: 8800 },
    });
    expect(ofType(forSession(events, 'ses_footer'), 'turn').map((t) => t.text)).toEqual([
      'The footer overlaps on mobile',
      'The footer is sticky now.',
      'Now the header',
      'Header fixed.',
    ]);
    expect(activityAt(events, 'ses_footer', 1773136102000 + 30_000)).toBe('waiting');
  });
});
