import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { emptySession } from '../../../src/streams/empty-session.js';
import { lazyState, type Core } from '../../../src/sources/internal/lazy-detail.js';
import type { SessionState } from '../../../src/core/session.js';
import { nextChangeAt, resolveActivity } from '../../../src/streams/activity.js';

const coreOf = (id: string): Core => {
  const { usageByMessage: _u, recentTools: _t, recentMessages: _m, ...core } = emptySession('claude', id);
  return core;
};
const detail = { usageByMessage: {}, recentTools: [{ name: 'Bash', at: 5, done: true }], recentMessages: [{ role: 'user', text: 'hi', at: 4 }] };

describe('lazyState (a restored state whose detail loads on first read)', () => {
  it('loads the detail once, on first read, and reads as a plain state (spread, JSON)', () => {
    let loads = 0;
    const state = lazyState(coreOf('a'), () => {
      loads += 1;
      return Buffer.from(JSON.stringify(detail));
    });
    expect(loads).toBe(0);
    expect(state.recentTools).toEqual(detail.recentTools);
    expect(state.recentMessages).toEqual(detail.recentMessages);
    expect(loads).toBe(1);
    const copy: SessionState = { ...state };
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(Object.keys(copy).sort()).toEqual(Object.keys(emptySession('claude', 'a')).sort());
    expect(JSON.parse(JSON.stringify(state))).toEqual({ ...emptySession('claude', 'a'), ...detail });
  });

  it('the activity of a session whose last record is a tool record reads the detail only while a finished tool can still paint it', () => {
    const calledAt = Date.parse('2026-11-01T10:00:00Z');
    const tool = { name: 'Read', at: calledAt, done: true };
    let loads = 0;
    const restored = (): SessionState =>
      lazyState({ ...coreOf('t'), lastTurn: 'tool_result', lastTurnAt: calledAt + 1_000, lastActivityAt: calledAt + 1_000 }, () => {
        loads += 1;
        return Buffer.from(JSON.stringify({ ...detail, recentTools: [tool] }));
      });
    // Idle for weeks: settled by time alone, nothing read back.
    const weeksLater = calledAt + 21 * 86_400_000;
    expect(resolveActivity(restored(), weeksLater)).toEqual({ activity: 'idle', tool: '' });
    expect(nextChangeAt(restored(), weeksLater)).toBe(Number.POSITIVE_INFINITY);
    expect(loads).toBe(0);
    // Seconds after the call the finished tool still paints the session: read as before.
    const soon = calledAt + 5_000;
    expect(resolveActivity(restored(), soon)).toEqual({ activity: 'reading', tool: 'Read' });
    expect(nextChangeAt(restored(), soon)).toBeLessThanOrEqual(calledAt + 30_000);
    expect(loads).toBe(2);
  });

  it('a detail that is gone or invalid reads as empty', () => {
    expect(lazyState(coreOf('b'), () => undefined).recentMessages).toEqual([]);
    expect(lazyState(coreOf('c'), () => Buffer.from('{"recentTools": 3}')).recentTools).toEqual([]);
  });

  it('restored states share V8 hidden classes (a class of its own cost each state about 1.5 KiB)', () => {
    const module = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/sources/internal/lazy-detail.js')).href;
    const core = JSON.stringify(coreOf('x'));
    const out = execFileSync(
      process.execPath,
      [
        '--allow-natives-syntax',
        '--input-type=module',
        '-e',
        `import { lazyState } from ${JSON.stringify(module)};
         const states = [];
         for (let i = 0; i < 500; i += 1) {
           const core = JSON.parse(${JSON.stringify(core)});
           Object.assign(core, { sessionId: 's' + i, lastActivityAt: 1795564800000 + i, recordedCostUsd: i / 7, checkpoint: i % 2 ? null : { path: '/p/' + i, offset: i, size: i, mtimeMs: i + 0.5 } });
           states.push(lazyState(JSON.parse(JSON.stringify(core)), () => undefined));
         }
         const classes = [];
         for (const s of states) if (!classes.some((c) => %HaveSameMap(c, s))) classes.push(s);
         process.stdout.write(String(classes.length));`,
      ],
      { encoding: 'utf8' },
    );
    expect(Number(out)).toBeLessThanOrEqual(3);
  });
});
