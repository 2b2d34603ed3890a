import { appendFile, copyFile, mkdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { claude } from '../../../src/sources/claude/index.js';
import { codex } from '../../../src/sources/codex/index.js';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { makeCtx, passWithCache, startWithCache, useFixtureHome } from '../../helpers/source-harness.js';

const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;
const prompt = (text: string, at: number): string => line({ type: 'user', cwd: '/home/dev/acme', message: { role: 'user', content: text }, timestamp: new Date(at).toISOString() });

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const MINUTE = 60_000;

/** The session ids in the order their first event came. */
const firstSeen = (events: readonly SessionEvent[]): string[] => {
  const order: string[] = [];
  for (const event of events) if ('sessionId' in event && event.sessionId !== undefined && !order.includes(event.sessionId)) order.push(event.sessionId);
  return order;
};

describe('first discovery pass: newest transcripts first', () => {
  const fx = useFixtureHome('agentwatch-recency-');
  const project = (): string => path.join(fx.home.home, '.claude/projects/-home-dev-acme');

  /** Writes a claude transcript whose file was last written `ageMin` minutes before NOW. */
  const transcript = async (id: string, ageMin: number, dir = project()): Promise<string> => {
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, `${id}.jsonl`);
    const at = NOW - ageMin * MINUTE;
    await writeFile(file, prompt(`hello from ${id}`, at));
    await utimes(file, at / 1000, at / 1000);
    return file;
  };

  it('reads the files newest first, whatever their order on disk, across projects', async () => {
    // Names sort against their age: a walk in listing order would read the oldest first.
    await transcript('a-oldest', 600);
    await transcript('b-older', 300);
    await transcript('c-newest', 1, path.join(fx.home.home, '.claude/projects/-home-dev-zeta'));
    await transcript('d-newer', 30);
    const run = await fx.once(claude);
    expect(firstSeen(run.events)).toEqual(['c-newest', 'd-newer', 'b-older', 'a-oldest']);
  });

  it('tells its progress: read of total, the last one once everything is read, before ready', async () => {
    for (let i = 0; i < 5; i += 1) await transcript(`s-${i}`, i * 10);
    const run = await fx.once(claude);
    const progress = run.events.filter((e) => e.type === 'progress');
    expect(progress[0]).toEqual({ type: 'progress', agent: 'claude', read: 0, total: 5 });
    expect(progress.at(-1)).toEqual({ type: 'progress', agent: 'claude', read: 5, total: 5 });
    const reads = progress.map((e) => (e.type === 'progress' ? e.read : -1));
    expect(reads).toEqual([...reads].sort((a, b) => a - b));
    expect(run.events.findIndex((e) => e.type === 'progress' && e.read === 5)).toBeLessThan(run.events.findIndex((e) => e.type === 'ready'));
  });

  it('counts the files a warm start restores as read at once', async () => {
    for (let i = 0; i < 3; i += 1) await transcript(`s-${i}`, i * 10);
    await startWithCache(fx, claude);
    await transcript('s-new', 0);
    const cache = openDiscoveryCache(fx.home.env);
    try {
      const run = await fx.once(claude, { cache });
      const progress = run.events.filter((e) => e.type === 'progress');
      expect(progress[0]).toEqual({ type: 'progress', agent: 'claude', read: 3, total: 4 });
      expect(progress.at(-1)).toEqual({ type: 'progress', agent: 'claude', read: 4, total: 4 });
    } finally {
      cache.close();
    }
  });

  it('a watching pass finds a transcript written while its watches were being set up', async () => {
    await transcript('before', 5);
    const run = fx.start(claude);
    // Written right after the start: before, during or after the pass looked; never lost.
    const late = path.join(project(), 'late.jsonl');
    await writeFile(late, prompt('written during discovery', NOW));
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 8_000;
      const check = (): void => {
        if (run.sessions().get('late')?.userMessages === 1) resolve();
        else if (Date.now() > deadline) reject(new Error('late transcript never read'));
        else setTimeout(check, 10);
      };
      check();
    });
    expect(run.sessions().get('before')?.userMessages).toBe(1);
  });
});

describe('one-shot window (readSince): files too old for the window are not read', () => {
  const fx = useFixtureHome('agentwatch-recency-window-');
  const project = (): string => path.join(fx.home.home, '.claude/projects/-home-dev-acme');

  const write = async (file: string, text: string, at: number): Promise<void> => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    await utimes(file, at / 1000, at / 1000);
  };

  it('skips old transcripts, reads recent ones and the sub-agent transcripts of recent ones, of any age', async () => {
    const old = NOW - 600 * MINUTE;
    await write(path.join(project(), 'recent.jsonl'), prompt('recent', NOW - MINUTE), NOW - MINUTE);
    await write(path.join(project(), 'old.jsonl'), prompt('old', old), old);
    // A sub-agent's usage rolls up into its parent: read whatever its age.
    const subagent = (parent: string): string => line({ type: 'user', isSidechain: true, sessionId: parent, cwd: '/home/dev/acme', message: { role: 'user', content: 'sub' }, timestamp: new Date(old).toISOString() });
    await write(path.join(project(), 'recent', 'subagents', 'agent-0123abcd.jsonl'), subagent('recent'), old);
    await write(path.join(project(), 'old', 'subagents', 'agent-4567cdef.jsonl'), subagent('old'), old);
    const run = await fx.once(claude, { readSince: NOW - 30 * MINUTE });
    expect([...run.sessions().keys()].sort()).toEqual(['agent-0123abcd', 'recent']);
    expect(run.events.filter((e) => e.type === 'progress').at(-1)).toEqual({ type: 'progress', agent: 'claude', read: 2, total: 2 });
  });

  it("keeps the skipped files' cache rows: a later full pass restores them", async () => {
    const old = NOW - 600 * MINUTE;
    const oldFile = path.join(project(), 'old.jsonl');
    await write(path.join(project(), 'recent.jsonl'), prompt('recent', NOW - MINUTE), NOW - MINUTE);
    await write(oldFile, prompt('old', old), old);
    await startWithCache(fx, claude);
    const windowed = await passWithCache(claude, makeCtx(fx.home.env, { readSince: NOW - 30 * MINUTE }));
    expect(windowed.some((e) => 'sessionId' in e && e.sessionId === 'old')).toBe(false);
    const cache = openDiscoveryCache(fx.home.env);
    try {
      expect(cache.get(oldFile)?.sessionId).toBe('old');
    } finally {
      cache.close();
    }
  });

  it('reads a codex session of several files when any of them is recent, and skips it when none is', async () => {
    // A thread and its segment a day later (fixtures/codex/segments): the first file is old.
    const thread = '019f3a10-1111-7aaa-8bbb-00000000c0de';
    const first = `rollout-2026-11-20T10-00-00-${thread}.jsonl`;
    const second = `rollout-2026-11-21T09-00-00-${thread}_019f3b22-2222-7ccc-8ddd-00000000d1ff.jsonl`;
    const place = (day: string, name: string): string => path.join(fx.home.home, '.codex/sessions/2026/11', day, name);
    await mkdir(path.dirname(place('20', first)), { recursive: true });
    await mkdir(path.dirname(place('21', second)), { recursive: true });
    await copyFile(path.join('fixtures/codex/segments', first), place('20', first));
    await copyFile(path.join('fixtures/codex/segments', second), place('21', second));
    const old = NOW - 600 * MINUTE;
    await utimes(place('20', first), old / 1000, old / 1000);
    await utimes(place('21', second), (NOW - MINUTE) / 1000, (NOW - MINUTE) / 1000);
    const full = await fx.once(codex);
    const windowed = await fx.once(codex, { readSince: NOW - 30 * MINUTE });
    expect(full.sessions().get(thread)?.userMessages).toBe(3);
    expect(windowed.sessions().get(thread)).toEqual(full.sessions().get(thread));
    await utimes(place('21', second), old / 1000, old / 1000);
    const none = await fx.once(codex, { readSince: NOW - 30 * MINUTE });
    expect(none.sessions().has(thread)).toBe(false);
  });

  it('a pass that wants only changes restores nothing, reads only what changed, and keeps every row', async () => {
    const busy = path.join(project(), 'busy.jsonl');
    await write(path.join(project(), 'quiet.jsonl'), prompt('quiet', NOW - 300 * MINUTE), NOW - 300 * MINUTE);
    await write(busy, prompt('busy', NOW - 200 * MINUTE), NOW - 200 * MINUTE);
    const ctx = makeCtx(fx.home.env);
    await passWithCache(claude, ctx);
    const nothing = await passWithCache(claude, { ...ctx, changedOnly: true });
    expect(nothing.filter((e) => 'sessionId' in e && e.sessionId !== undefined)).toEqual([]);
    expect(nothing.filter((e) => e.type === 'ready')).toHaveLength(1);

    await appendFile(busy, prompt('and one more thing', NOW));
    const changed = await passWithCache(claude, { ...ctx, changedOnly: true });
    // The changed file resumes from its row (a restore, then only the appended line).
    expect(firstSeen(changed)).toEqual(['busy']);
    expect(changed.filter((e) => e.type === 'restore').map((e) => ('sessionId' in e ? e.sessionId : ''))).toEqual(['busy']);
    expect(changed.filter((e) => e.type === 'turn')).toHaveLength(1);
    // The quiet session's row stayed: a full warm start still restores it.
    const warm = await passWithCache(claude, ctx);
    expect(warm.filter((e) => e.type === 'restore').map((e) => ('sessionId' in e ? e.sessionId : '')).sort()).toEqual(['busy', 'quiet']);
  });
});
