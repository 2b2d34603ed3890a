import { appendFile, mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { createKimiSource, kimi } from '../../../src/sources/kimi/index.js';
import { cachedFileOf, makeCtx, startWithCache, useFixtureHome, waitFor } from '../../helpers/source-harness.js';

const MAIN = 'ses_01JNX7Q2';
const LEGACY = 'ses_legacy01';
const LAUNCHED = 'ses_01JNZ000';
const SUB = 'ses_01JNX7Q2:sub_7f2a';

describe('kimi source (real files, real watcher)', () => {
  const fx = useFixtureHome('agentwatch-kimi-', 'kimi');
  let root: string;

  beforeEach(() => {
    root = path.join(fx.home.home, '.kimi-code');
  });

  it('discovers sessions with cwd, title, model, tokens and hidden sub-agents; junk is a diagnostic', async () => {
    const run = await fx.once(kimi);
    const sessions = run.sessions();
    expect([...sessions.keys()].sort()).toEqual([LAUNCHED, MAIN, SUB, LEGACY].sort());
    expect(sessions.get(MAIN)).toMatchObject({
      cwd: '/home/dev/invoicer',
      agentName: 'Add PDF export',
      model: 'kimi-code/kimi-for-coding',
      version: '0.11.0',
      resumeCommand: `kimi --resume ${MAIN}`,
      userMessages: 1,
      assistantMessages: 1,
      lastTurn: 'assistant',
      lastActivityAt: 1773136352200,
      lastFileWrite: '/home/dev/invoicer/export/pdf.go',
      tokens: { input: 6200, output: 500, cacheCreation: 0, cacheRead: 29400 },
      isSidechain: false,
    });
    expect(sessions.get(SUB)).toMatchObject({ isSidechain: true, parentId: MAIN, cwd: '/home/dev/invoicer', userMessages: 1 });
    expect(sessions.get(LEGACY)).toMatchObject({
      cwd: '/home/dev/scripts',
      agentName: 'cleanup script',
      userMessages: 2,
      assistantMessages: 1,
      lastTurn: 'tool_call',
      compactionStartedAt: 1773075700000,
      compactionEndedAt: 1773075705000,
    });
    // Launched, never prompted: listed by discovery with zero user messages (the visibility filter hides it).
    expect(sessions.get(LAUNCHED)).toMatchObject({ userMessages: 0, assistantMessages: 0 });
    expect(run.diagnostics().map((d) => [d.code, d.sessionId])).toEqual([['E_SCHEMA', LEGACY]]);
    expect(run.errors).toEqual([]);
  });

  it("reads the title of Kimi Code's earlier layout (<session>/session-meta/state.json) while the session has no state.json of its own", async () => {
    const sessionDir = path.join(root, 'sessions/wd_invoicer_5c1e9a', MAIN);
    const own = path.join(sessionDir, 'state.json');
    const earlier = path.join(sessionDir, 'session-meta', 'state.json');
    await mkdir(path.dirname(earlier), { recursive: true });
    await writeFile(earlier, JSON.stringify({ title: 'Title of the earlier layout', isCustomTitle: false }));
    // Both there: the session's own wins, as in Kimi Code.
    expect((await fx.once(kimi)).sessions().get(MAIN)?.agentName).toBe('Add PDF export');
    await rm(own);
    expect((await fx.once(kimi)).sessions().get(MAIN)?.agentName).toBe('Title of the earlier layout');
  });

  it('honours KIMI_SHARE_DIR over KIMI_CODE_HOME, and KIMI_CODE_HOME over ~/.kimi-code', async () => {
    const moved = path.join(fx.home.root, 'share');
    await rename(root, moved);
    let run = fx.start(kimi, makeCtx({ ...fx.home.env, KIMI_SHARE_DIR: moved, KIMI_CODE_HOME: path.join(fx.home.root, 'nothing') }, { watch: false }));
    await waitFor('completion', () => run.done());
    expect(run.sessions().get(MAIN)?.agentName).toBe('Add PDF export');
    run = fx.start(kimi, makeCtx({ ...fx.home.env, KIMI_CODE_HOME: moved }, { watch: false }));
    await waitFor('completion', () => run.done());
    expect(run.sessions().has(MAIN)).toBe(true);
  });

  it('follows appends, a finished partial line, a new title, a new session and a deletion', async () => {
    const run = await fx.ready(kimi);
    const legacyWire = path.join(root, 'sessions/wd_scripts_0b77d1', LEGACY, 'agents/main/wire.jsonl');
    // The writer finishes the half-written tool result, then the model answers.
    await appendFile(legacyWire, 'llId":"tool-2"}}\n{"type":"context.append_message","message":{"role":"assistant","content":"Done, prune.sh is executable."},"time":1773075720000}\n');
    await waitFor('the appended answer', () => run.sessions().get(LEGACY)?.assistantMessages === 2);
    expect(run.sessions().get(LEGACY)).toMatchObject({ lastTurn: 'assistant', lastTurnAt: 1773075720000, pendingTools: [] });

    const mainWire = path.join(root, 'sessions/wd_invoicer_5c1e9a', MAIN, 'agents/main/wire.jsonl');
    await appendFile(mainWire, '{"type":"context.append_message","message":{"role":"user","content":"and a CSV export"},"time":1773136400000}\n');
    await waitFor('the new prompt', () => run.sessions().get(MAIN)?.userMessages === 2);
    expect(run.sessions().get(MAIN)?.lastTurn).toBe('user');

    await writeFile(path.join(root, 'sessions/wd_invoicer_5c1e9a', MAIN, 'state.json'), '{"title":"PDF and CSV export","isCustomTitle":true}');
    await waitFor('the new title', () => run.sessions().get(MAIN)?.agentName === 'PDF and CSV export');

    const fresh = path.join(root, 'sessions/wd_new_77aa00/ses_fresh001/agents/main');
    await mkdir(fresh, { recursive: true });
    await writeFile(path.join(fresh, 'wire.jsonl'), '{"type":"context.append_message","message":{"role":"user","content":"hello"},"time":1773140500000}\n');
    await waitFor('the new session', () => run.sessions().get('ses_fresh001')?.userMessages === 1);

    await rm(path.join(root, 'sessions/wd_scripts_0b77d1', LEGACY), { recursive: true });
    await waitFor('the removal', () => !run.sessions().has(LEGACY));
    expect(run.errors).toEqual([]);
  });

  it('warm-starts from the discovery cache; an appended record without a time inherits the restored clock', async () => {
    const cache = openDiscoveryCache(fx.home.env);
    try {
      let run = await fx.once(kimi);
      const states = [...run.sessions().values()].filter((s) => s.checkpoint);
      cache.write(
        states.map(cachedFileOf),
        [],
      );
      const mainWire = path.join(root, 'sessions/wd_invoicer_5c1e9a', MAIN, 'agents/main/wire.jsonl');
      await appendFile(mainWire, '{"type":"context.append_message","message":{"role":"user","content":"one more thing"}}\n');
      run = await fx.once(kimi, { cache });
      expect(run.events.some((e) => e.type === 'restore' && e.sessionId === MAIN)).toBe(true);
      const turns = run.events.filter((e) => e.type === 'turn' && e.sessionId === MAIN);
      expect(turns).toHaveLength(1);
      expect(run.sessions().get(MAIN)).toMatchObject({ userMessages: 2, lastTurn: 'user', lastTurnAt: 1773136352200 });
    } finally {
      cache.close();
    }
  });

  it('a warm start stats the state.json of sessions at rest, without reading it; a changed one is read', async () => {
    const old = new Date(Date.now() - 60_000);
    const states = (await readdir(path.join(root, 'sessions'), { recursive: true })).filter((f) => f.endsWith('state.json')).map((f) => path.join(root, 'sessions', f));
    expect(states.length).toBeGreaterThan(0);
    for (const file of states) await utimes(file, old, old);
    await startWithCache(fx, kimi);
    const state = states.find((file) => file.includes(MAIN)) as string;
    // Another title of the same length, the size and mtime put back: only a read would see it.
    await writeFile(state, (await readFile(state, 'utf8')).replace('Add PDF export', 'Add PDF EXPORT'));
    await utimes(state, old, old);
    const warm = await startWithCache(fx, kimi);
    expect(warm.sessions().get(MAIN)?.agentName).toBe('Add PDF export');
    const later = new Date(old.getTime() + 1_000);
    await utimes(state, later, later);
    const again = await startWithCache(fx, kimi);
    expect(again.sessions().get(MAIN)?.agentName).toBe('Add PDF EXPORT');
  });

  it('skips a line over the size cap with a diagnostic and keeps reading after it', async () => {
    const run = await fx.once(createKimiSource({ read: { maxLineBytes: 2048 } }));
    // The pasted log (a 3.7 KB turn.prompt) is over the cap; the prompt's context message after it still counts.
    expect(run.diagnostics().filter((d) => d.code === 'E_OVERSIZED_LINE').map((d) => d.sessionId)).toEqual([LEGACY]);
    expect(run.sessions().get(LEGACY)).toMatchObject({ userMessages: 2, lastTurn: 'tool_call' });
  });
});
