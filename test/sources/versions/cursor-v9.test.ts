import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openCursorReader } from '../../../src/sources/cursor/reader.js';
import { createSqlitePoller } from '../../../src/sources/sqlite/poller.js';
import { activityAt, foldSession } from '../sqlite/helpers.js';

/**
 * Cursor composers of `_v` 9 (September 2025 on): bubbles carry no `createdAt`; the times are the
 * composer's `lastUpdatedAt` and each bubble's `timingInfo.clientEndTime` (epoch ms). The rows
 * below follow that structure (written for this test).
 */
const ID = '7a1b2c3d-9999-4aaa-8bbb-00000000e900';
const CREATED = Date.parse('2026-03-01T08:00:00.000Z'); // five days before "now": created long ago
const ANSWERED = Date.parse('2026-03-06T09:59:46.000Z');
const NOW = Date.parse('2026-03-06T10:00:00.000Z'); // answered 14 s ago

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const database = (): { file: string; db: Database.Database } => {
  const dir = mkdtempSync(path.join(tmpdir(), 'aw-cursor-v9-'));
  dirs.push(dir);
  const file = path.join(dir, 'state.vscdb');
  const db = new Database(file);
  db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB); CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);');
  const put = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
  put.run(
    `composerData:${ID}`,
    JSON.stringify({
      _v: 9,
      composerId: ID,
      name: 'Fix flaky checkout test',
      createdAt: CREATED,
      lastUpdatedAt: ANSWERED,
      status: 'completed',
      unifiedMode: 'agent',
      modelConfig: { modelName: 'gpt-5' },
      fullConversationHeadersOnly: [
        { bubbleId: 'b-1', type: 1 },
        { bubbleId: 'b-2', type: 2 },
        { bubbleId: 'b-3', type: 2 },
      ],
    }),
  );
  put.run(`bubbleId:${ID}:b-1`, JSON.stringify({ _v: 3, bubbleId: 'b-1', type: 1, text: 'Why is checkout.spec flaky?', workspaceUris: ['file:///home/dev/store'] }));
  put.run(
    `bubbleId:${ID}:b-2`,
    JSON.stringify({
      _v: 3,
      bubbleId: 'b-2',
      type: 2,
      text: '',
      toolFormerData: { name: 'read_file', status: 'completed', toolCallId: 'tool_1', rawArgs: '{"target_file":"tests/checkout.spec.ts"}' },
      timingInfo: { clientStartTime: ANSWERED - 20_000, clientEndTime: ANSWERED - 15_000 },
    }),
  );
  put.run(
    `bubbleId:${ID}:b-3`,
    JSON.stringify({
      _v: 3,
      bubbleId: 'b-3',
      type: 2,
      text: 'The test waits on a fixed timeout; I replaced it with an await on the response.',
      tokenCount: { inputTokens: 4200, outputTokens: 180 },
      timingInfo: { clientStartTime: ANSWERED - 9_000, clientEndTime: ANSWERED },
    }),
  );
  return { file, db };
};

describe('Cursor composer _v 9: times from timingInfo and lastUpdatedAt', () => {
  it('a chat created days ago and answered 14 s ago is listed, with that answer as its last activity (waiting, not idle)', () => {
    const { file, db } = database();
    const poller = createSqlitePoller({ agent: 'cursor', label: 'Cursor', dbPath: file, openReader: openCursorReader });
    try {
      const events = poller.poll(NOW);
      expect(foldSession(events, ID)).toMatchObject({ lastActivityAt: ANSWERED, agentName: 'Fix flaky checkout test', cwd: '/home/dev/store' });
      // 14 s after the answer: waiting (past the 10 s grace), not idle with a days-old time.
      expect(activityAt(events, ID, NOW)).toBe('waiting');
    } finally {
      poller.close();
      db.close();
    }
  });

  it('a prompt just sent (no timingInfo yet) happened at the composer\'s last update, not at its creation', () => {
    const { file, db } = database();
    const sent = NOW - 2_000;
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(`bubbleId:${ID}:b-4`, JSON.stringify({ _v: 3, bubbleId: 'b-4', type: 1, text: 'Also fix the cart spec' }));
    const composer = JSON.parse(String(db.prepare('SELECT value FROM cursorDiskKV WHERE key = ?').pluck().get(`composerData:${ID}`))) as Record<string, unknown> & { fullConversationHeadersOnly: object[] };
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(
      `composerData:${ID}`,
      JSON.stringify({ ...composer, lastUpdatedAt: sent, status: 'generating', fullConversationHeadersOnly: [...composer.fullConversationHeadersOnly, { bubbleId: 'b-4', type: 1 }] }),
    );
    const poller = createSqlitePoller({ agent: 'cursor', label: 'Cursor', dbPath: file, openReader: openCursorReader });
    try {
      const events = poller.poll(NOW);
      expect(foldSession(events, ID)).toMatchObject({ lastActivityAt: sent, userMessages: 2 });
      expect(activityAt(events, ID, NOW)).toBe('thinking');
    } finally {
      poller.close();
      db.close();
    }
  });
});
