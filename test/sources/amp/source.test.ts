import { mkdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAmpSource } from '../../../src/sources/amp/index.js';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { cachedFileOf, makeCtx, passWithCache, useFixtureHome, waitFor } from '../../helpers/source-harness.js';

const MAIN = 'T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b';
const HANDOFF = 'T-01960000-aaaa-7bbb-8ccc-0000000000f1';

describe('amp source (real files, real watcher)', () => {
  const fx = useFixtureHome('agentwatch-amp-', 'amp');
  let threads: string;
  const source = createAmpSource({ exportSync: false });

  beforeEach(() => {
    threads = path.join(fx.home.env.XDG_DATA_HOME as string, 'amp', 'threads');
  });

  it('discovers the threads, skips empty and torn ones with diagnostics, then completes in one-shot mode', async () => {
    const run = await fx.once(source);
    const sessions = run.sessions();
    expect([...sessions.keys()].sort()).toEqual([MAIN, HANDOFF]);
    const main = sessions.get(MAIN)!;
    expect(main).toMatchObject({
      cwd: '/home/dev/my chat',
      agentName: 'Fix flaky websocket test',
      gitBranch: 'fix/ws-flake',
      model: 'claude-opus-4-6',
      resumeCommand: `amp threads continue ${MAIN}`,
      userMessages: 1,
      assistantMessages: 3,
      lastTurn: 'assistant',
      lastFileWrite: '/home/dev/my chat/ws_test.go',
      tokens: { input: 29, output: 256, cacheCreation: 5100, cacheRead: 8000 },
      path: path.join(threads, `${MAIN}.json`),
    });
    expect(main.checkpoint).toMatchObject({ path: path.join(threads, `${MAIN}.json`), offset: main.checkpoint?.size });
    expect(sessions.get(HANDOFF)).toMatchObject({ cwd: '/srv/billing', userMessages: 2, lastTurn: 'user' });
    expect(run.diagnostics().map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_SCHEMA']);
    expect(run.events.filter((e) => e.type === 'ready')).toHaveLength(1);
    expect(run.errors).toEqual([]);
  });

  it('reads the most recently written thread first, and a one-shot window leaves older ones unread', async () => {
    const firstSession = (events: readonly { type: string; sessionId?: string }[]): string | undefined => events.find((e) => e.sessionId !== undefined)?.sessionId;
    const at = (file: string, iso: string) => utimes(path.join(threads, `${file}.json`), new Date(iso), new Date(iso));
    await at(MAIN, '2026-01-05T00:00:00Z');
    await at(HANDOFF, '2026-03-05T00:00:00Z');
    expect(firstSession((await fx.once(source)).events)).toBe(HANDOFF);
    await at(MAIN, '2026-03-06T00:00:00Z');
    expect(firstSession((await fx.once(source)).events)).toBe(MAIN);

    await at(MAIN, '2026-01-05T00:00:00Z');
    const windowed = await fx.once(source, { readSince: Date.parse('2026-02-01T00:00:00Z') });
    expect([...windowed.sessions().keys()]).toEqual([HANDOFF]);
    expect(windowed.events.filter((e) => e.type === 'ready')).toHaveLength(1);
  });

  it('a pass that wants only changes restores no thread the cache holds as it is', async () => {
    const ctx = makeCtx(fx.home.env);
    expect((await passWithCache(source, ctx)).filter((e) => e.type === 'checkpoint').length).toBeGreaterThan(0);
    expect((await passWithCache(source, ctx)).filter((e) => e.type === 'restore').length).toBeGreaterThan(0);
    const changes = await passWithCache(source, { ...ctx, changedOnly: true });
    expect(changes.filter((e) => e.type === 'restore' || e.type === 'checkpoint')).toEqual([]);
  });

  it('replays a rewritten thread as a new state, picks up a new thread, and removes a deleted one', async () => {
    const run = await fx.ready(source);
    const file = path.join(threads, `${HANDOFF}.json`);
    const doc = JSON.parse(await readFile(file, 'utf8')) as { messages: Record<string, unknown>[]; title: string };
    doc.messages[doc.messages.length - 1] = {
      role: 'assistant',
      messageId: 6,
      content: [{ type: 'text', text: 'Understood, I will keep build/ and move only the cron.' }],
      state: { type: 'complete', stopReason: 'end_turn' },
      meta: { sentAt: 1773138020000 },
    };
    doc.title = 'Billing cron, build/ kept';
    // Amp rewrites the whole document (here: through a temp file and a rename).
    await writeFile(`${file}.tmp`, JSON.stringify(doc));
    await rename(`${file}.tmp`, file);
    await waitFor('the rewrite', () => run.sessions().get(HANDOFF)?.agentName === 'Billing cron, build/ kept');
    const handoff = run.sessions().get(HANDOFF)!;
    // A full replay after a reset: counts are those of the new document, not added to the old ones.
    expect(handoff).toMatchObject({ userMessages: 2, assistantMessages: 2, lastTurn: 'assistant', lastTurnAt: 1773138020000 });

    const fresh = 'T-01960000-dddd-7eee-8fff-000000000123';
    await writeFile(
      path.join(threads, `${fresh}.json`),
      JSON.stringify({ id: fresh, created: 1773140000000, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }], meta: { sentAt: 1773140000100 } }] }),
    );
    await waitFor('the new thread', () => run.sessions().has(fresh));
    expect(run.sessions().get(fresh)).toMatchObject({ userMessages: 1, lastTurn: 'user' });

    await rm(path.join(threads, `${MAIN}.json`));
    await waitFor('the removal', () => !run.sessions().has(MAIN));
    expect(run.events.filter((e) => e.type === 'removed').map((e) => e.type === 'removed' && e.sessionId)).toEqual([MAIN]);
    expect(run.errors).toEqual([]);
  });

  it('keeps the last good state when a rewrite is caught half-written, and recovers on the next write', async () => {
    const run = await fx.ready(source);
    const file = path.join(threads, `${MAIN}.json`);
    const good = await readFile(file, 'utf8');
    await writeFile(file, good.slice(0, 200));
    await waitFor('the torn-document diagnostic', () => run.diagnostics().some((d) => d.code === 'E_JUNK_LINE' && d.path === file));
    expect(run.sessions().get(MAIN)?.assistantMessages).toBe(3);
    await writeFile(file, good.replace('Fix flaky websocket test', 'Fixed'));
    await waitFor('recovery', () => run.sessions().get(MAIN)?.agentName === 'Fixed');
    expect(run.sessions().get(MAIN)?.assistantMessages).toBe(3);
  });

  it('finds threads when the threads directory is created after start', async () => {
    await rm(threads, { recursive: true });
    const run = await fx.ready(source);
    expect(run.sessions().size).toBe(0);
    await mkdir(threads, { recursive: true });
    await writeFile(
      path.join(threads, 'T-1.json'),
      JSON.stringify({ id: 'T-1', messages: [{ role: 'user', content: [{ type: 'text', text: 'late' }], meta: { sentAt: 5 } }] }),
    );
    await waitFor('the late thread', () => run.sessions().has('T-1'));
  });

  it('reports a document over the size cap instead of loading it', async () => {
    const run = await fx.once(createAmpSource({ exportSync: false, maxDocumentBytes: 2048 }));
    // The main thread (3 KB) is skipped with a diagnostic; the smaller one is read.
    expect([...run.sessions().keys()]).toEqual([HANDOFF]);
    expect(run.diagnostics().filter((d) => d.code === 'E_OVERSIZED_LINE').map((d) => d.path)).toEqual([path.join(threads, `${MAIN}.json`)]);
  });

  it('warm-starts unchanged threads from the discovery cache and re-reads changed ones', async () => {
    const cache = openDiscoveryCache(fx.home.env);
    try {
      let run = await fx.once(source);
      const states = [...run.sessions().values()];
      cache.write(
        states.map(cachedFileOf),
        [],
      );
      const file = path.join(threads, `${HANDOFF}.json`);
      await writeFile(file, (await readFile(file, 'utf8')).replace('Handoff: migrate the billing cron', 'Renamed'));
      run = await fx.once(source, { cache });
      expect(run.events.filter((e) => e.type === 'restore').map((e) => e.type === 'restore' && e.sessionId)).toEqual([MAIN]);
      expect(run.events.filter((e) => e.type === 'reset').map((e) => e.type === 'reset' && e.sessionId)).toEqual([HANDOFF]);
      expect(run.sessions().get(MAIN)).toEqual(states.find((s) => s.sessionId === MAIN));
      expect(run.sessions().get(HANDOFF)?.agentName).toBe('Renamed');
    } finally {
      cache.close();
    }
  });
});
