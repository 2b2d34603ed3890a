import { describe, expect, it } from 'vitest';
import { NO_SUBAGENTS, type SessionState } from '../../../src/core/session.js';
import { decodeCore, encodeCore, type CoreRow } from '../../../src/sources/internal/core-codec.js';
import type { Core } from '../../../src/sources/internal/lazy-detail.js';
import { emptySession } from '../../../src/streams/empty-session.js';

const row: CoreRow = { path: '/h/.claude/projects/-w/s1.jsonl', offset: 900, size: 912, mtimeMs: 1_700_000_000_123.5 };

/** Where the codec stores the checkpoint (core-codec.ts). */
const CHECKPOINT_AT = 26;

const coreOf = (state: SessionState): Core => {
  const { usageByMessage: _u, recentTools: _t, recentMessages: _m, ...core } = state;
  return core;
};

/** Every field set, each to a value no other field has: a field the codec drops or swaps shows. */
const full: Core = coreOf({
  ...emptySession('claude', 's1'),
  cwd: '/w',
  model: 'claude-opus-4-1',
  gitBranch: 'feature/x',
  version: '2.0.31',
  agentName: 'Fix the parser',
  source: 'desktop',
  isSidechain: true,
  parentId: 'p0',
  resumeCommand: 'claude --resume s1',
  path: row.path,
  createdAt: 11,
  lastActivityAt: 12,
  lastTurn: 'tool_call',
  lastTurnAt: 13,
  userMessages: 14,
  assistantMessages: 15,
  tokens: { input: 16, output: 17, cacheCreation: 18, cacheRead: 19 },
  tokensAboveTier: { input: 1, output: 0, cacheCreation: 0, cacheRead: 2 },
  tokensByModel: {
    'claude-opus-4-5': { tokens: { input: 10, output: 11, cacheCreation: 12, cacheRead: 13, cacheCreation1h: 2 }, aboveTier: { input: 1, output: 0, cacheCreation: 0, cacheRead: 2 } },
    'claude-sonnet-4-5': { tokens: { input: 6, output: 6, cacheCreation: 6, cacheRead: 6 }, aboveTier: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 } },
  },
  recordedCostUsd: 0.25,
  subagents: { sessions: 2, tokens: { input: 20, output: 21, cacheCreation: 22, cacheRead: 23 }, costUsd: 0.5 },
  inlineSubagents: { sessions: 3, tokens: { input: 29, output: 30, cacheCreation: 31, cacheRead: 32 }, costUsd: 0.75 },
  pendingTools: [
    { name: 'Bash', at: 24, callId: 'toolu_1', done: false },
    { name: 'Read', at: 25, done: true },
  ],
  lastFileWrite: '/w/a.ts',
  lastFileWriteAt: 26,
  compactionStartedAt: 27,
  compactionEndedAt: 28,
  checkpoint: { path: row.path, offset: row.offset, size: row.size, mtimeMs: row.mtimeMs, ino: 4242 },
});

describe('core codec (how the discovery cache stores a state core)', () => {
  it('round-trips every field, with the checkpoint and path taken from the row', () => {
    const text = encodeCore(full, row);
    expect(decodeCore(text, row)).toEqual(full);
    // What the row already says is not stored again.
    expect(text).not.toContain(row.path);
    expect(text).not.toContain(String(row.mtimeMs));
    expect(Object.keys(decodeCore(text, row)!)).toEqual(Object.keys(full));
  });

  it('keeps one-hour cache writes where there are any, and adds no field where there are none', () => {
    const hour: Core = {
      ...full,
      tokens: { ...full.tokens, cacheCreation1h: 7 },
      tokensAboveTier: { ...full.tokensAboveTier, cacheCreation1h: 3 },
      subagents: { ...full.subagents, tokens: { ...full.subagents.tokens, cacheCreation1h: 5 } },
    };
    expect(decodeCore(encodeCore(hour, row), row)).toEqual(hour);
    const decoded = decodeCore(encodeCore(full, row), row);
    expect(decoded && 'cacheCreation1h' in decoded.tokens).toBe(false);
  });

  it('keeps a path, a checkpoint without inode, another checkpoint and none', () => {
    const cases: Core[] = [
      { ...full, path: '/elsewhere/s1.jsonl' },
      { ...full, checkpoint: { path: row.path, offset: row.offset, size: row.size, mtimeMs: row.mtimeMs } },
      { ...full, checkpoint: { path: 'db#s1', offset: 0, size: 0, mtimeMs: 0, ino: 7 } },
      { ...full, checkpoint: { path: row.path, offset: 1, size: 2, mtimeMs: 3 } },
      { ...full, checkpoint: null },
      // Every session but a claude 1.0.x one with inline sub-agent turns.
      { ...full, inlineSubagents: NO_SUBAGENTS },
      // A session read from several files (codex segments): the earlier files, as they were read.
      {
        ...full,
        checkpoint: {
          path: row.path,
          offset: row.offset,
          size: row.size,
          mtimeMs: row.mtimeMs,
          ino: 4242,
          before: [
            { path: '/h/a.jsonl', size: 10, mtimeMs: 1.5, ino: 7 },
            { path: '/h/b.jsonl', size: 20, mtimeMs: 2.5 },
          ],
        },
      },
      // The diagnostics of the records read, alone and with earlier files.
      { ...full, checkpoint: { path: row.path, offset: row.offset, size: row.size, mtimeMs: row.mtimeMs, ino: 4242, diagnostics: { E_JUNK_LINE: 3, E_UNKNOWN_RECORD: 1 } } },
      { ...full, checkpoint: { path: 'db#s1', offset: 0, size: 0, mtimeMs: 0, diagnostics: { E_SCHEMA: 2 } } },
      {
        ...full,
        checkpoint: { ...row, ino: 4242, before: [{ path: '/h/a.jsonl', size: 10, mtimeMs: 1.5 }], diagnostics: { E_OVERSIZED_LINE: 1 } },
      },
    ];
    for (const core of cases) expect(decodeCore(encodeCore(core, row), row)).toEqual(core);
  });

  it('drops a checkpoint whose diagnostics do not decode', () => {
    const withDiagnostics: Core = { ...full, checkpoint: { ...row, diagnostics: { E_JUNK_LINE: 2 } } };
    const fields = JSON.parse(encodeCore(withDiagnostics, row)) as unknown[];
    const checkpoint = fields[CHECKPOINT_AT] as unknown[];
    expect(checkpoint).toHaveLength(7);
    for (const bad of [[['E_NOPE', 2]], [['E_JUNK_LINE', 0]], [['E_JUNK_LINE', 1.5]], [['E_JUNK_LINE']], 'x', [[5, 1]]]) {
      const edited = fields.map((v, j) => (j === CHECKPOINT_AT ? [...checkpoint.slice(0, 6), bad] : v));
      expect(decodeCore(JSON.stringify(edited), row), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('drops a checkpoint whose earlier files do not decode', () => {
    const withBefore: Core = { ...full, checkpoint: { ...row, before: [{ path: '/h/a.jsonl', size: 10, mtimeMs: 1 }] } };
    const fields = JSON.parse(encodeCore(withBefore, row)) as unknown[];
    const checkpoint = fields[CHECKPOINT_AT] as unknown[];
    expect(checkpoint).toHaveLength(6);
    expect(decodeCore(JSON.stringify(fields.map((v, j) => (j === CHECKPOINT_AT ? [...checkpoint.slice(0, 5), checkpoint[5]] : v))), row)).toEqual(withBefore);
    for (const bad of [[['/h/a.jsonl', 10, 1]], [['/h/a.jsonl', '10', 1, null]], 'x', [[5, 10, 1, null]]]) {
      const edited = fields.map((v, j) => (j === CHECKPOINT_AT ? [...checkpoint.slice(0, 5), bad] : v));
      expect(decodeCore(JSON.stringify(edited), row), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('drops a core of the wrong shape or with a value of the wrong type at any position', () => {
    const fields = JSON.parse(encodeCore(full, row)) as unknown[];
    expect(decodeCore('not json', row)).toBeUndefined();
    expect(decodeCore('{"agent":"claude"}', row)).toBeUndefined();
    expect(decodeCore(JSON.stringify(fields.slice(1)), row)).toBeUndefined();
    for (let i = 0; i < fields.length; i += 1) {
      // A number where a string (or the row's path, null) belongs, an object where a number, a string elsewhere.
      const wrong = typeof fields[i] === 'string' || fields[i] === null ? 5 : typeof fields[i] === 'number' ? {} : 'x';
      const edited = fields.map((value, j) => (j === i ? wrong : value));
      expect(decodeCore(JSON.stringify(edited), row), `position ${i}`).toBeUndefined();
    }
    const badValues: [number, unknown][] = [
      [0, 'nobody'],
      [7, 'web'],
      [14, 'sleeping'],
      [18, [1, 2, 3]],
      [21, [['Bash', 1]]],
    ];
    for (const [i, value] of badValues) {
      const edited = fields.map((v, j) => (j === i ? value : v));
      expect(decodeCore(JSON.stringify(edited), row), `position ${i}`).toBeUndefined();
    }
  });
});
