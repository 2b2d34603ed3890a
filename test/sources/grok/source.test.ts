import { appendFile, mkdir, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createGrokSource, grok } from '../../../src/sources/grok/index.js';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { cachedFileOf, startWithCache, useFixtureHome, waitFor } from '../../helpers/source-harness.js';

const MAIN = '0199e0aa-1111-7000-8000-00000000c0de';
const SUB = '0199e0aa-2222-7000-8000-0000000005ab';
const EMPTY = '0199e0aa-3333-7000-8000-00000000e417';
const SITE = '0199e0bb-4444-7000-8000-0000000071e5';
const LAST_ACTIVE = Date.parse('2026-03-10T09:41:12.449Z');

describe('grok source (real files, real watcher)', () => {
  const fx = useFixtureHome('agentwatch-grok-', 'grok');
  let sessions: string;
  let mainDir: string;

  beforeEach(() => {
    sessions = path.join(fx.home.home, '.grok', 'sessions');
    mainDir = path.join(sessions, '%2Fhome%2Fdev%2Fparser', MAIN);
  });

  it('reads the most recently written session directory first, and a one-shot window leaves older ones unread', async () => {
    const siteDir = path.join(sessions, '%2Fhome%2Fdev%2Fmy%20site', SITE);
    const stampDir = async (dir: string, iso: string): Promise<void> => {
      for (const name of await readdir(dir)) await utimes(path.join(dir, name), new Date(iso), new Date(iso));
    };
    for (const dir of [mainDir, path.join(sessions, '%2Fhome%2Fdev%2Fparser', SUB), path.join(sessions, '%2Fhome%2Fdev%2Fparser', EMPTY)]) await stampDir(dir, '2026-01-05T00:00:00Z');
    await stampDir(siteDir, '2026-03-05T00:00:00Z');
    const firstSession = async (): Promise<string | undefined> => {
      const first = (await fx.once(grok)).events.find((e) => 'sessionId' in e);
      return first && 'sessionId' in first ? first.sessionId : undefined;
    };
    expect(await firstSession()).toBe(SITE);
    await stampDir(mainDir, '2026-03-06T00:00:00Z');
    expect(await firstSession()).toBe(MAIN);
    await stampDir(mainDir, '2026-01-05T00:00:00Z');

    const windowed = await fx.once(grok, { readSince: Date.parse('2026-02-01T00:00:00Z') });
    expect([...windowed.sessions().keys()]).toEqual([SITE]);
    expect(windowed.events.filter((e) => e.type === 'ready')).toHaveLength(1);
  });

  it('discovers session directories with their summary facts, hidden sub-agents and counted junk', async () => {
    const run = await fx.once(grok);
    const all = run.sessions();
    expect([...all.keys()].sort()).toEqual([MAIN, SUB, EMPTY, SITE].sort());
    const main = all.get(MAIN)!;
    expect(main).toMatchObject({
      cwd: '/home/dev/parser',
      agentName: 'Fix JSON parser escape bug',
      model: 'grok-build',
      gitBranch: 'fix/escapes',
      resumeCommand: `grok --resume ${MAIN}`,
      userMessages: 1,
      assistantMessages: 1,
      lastTurn: 'assistant',
      tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
      path: path.join(mainDir, 'chat_history.jsonl'),
    });
    // The transcript has no times: a first full read carries the summary's own last-active time,
    // not the mtime of a file that was just copied into place.
    expect(main.lastActivityAt).toBe(LAST_ACTIVE);
    // Only complete lines are consumed: the half-written prompt at the end waits.
    const chat = await readFile(path.join(mainDir, 'chat_history.jsonl'), 'utf8');
    expect(main.checkpoint?.offset).toBe(chat.lastIndexOf('\n') + 1);
    expect(all.get(SUB)).toMatchObject({ isSidechain: true, resumeCommand: '', agentName: 'look for other escape decoders' });
    expect(all.get(EMPTY)).toMatchObject({ userMessages: 0 });
    expect(all.get(SITE)).toMatchObject({ cwd: '/home/dev/my site', lastTurn: 'tool_call', lastFileWrite: '/home/dev/my site/index.html' });
    // Its usage is the sum of the turn_completed records of updates.jsonl (cached reads are part of the input there).
    expect(all.get(SITE)?.tokens).toEqual({ input: 60_000 - 51_000, output: 2_400, cacheCreation: 0, cacheRead: 51_000 });
    expect(all.get(SITE)?.recordedCostUsd).toBeCloseTo(0.17, 12);
    expect(run.diagnostics().map((d) => [d.code, d.sessionId, d.version])).toEqual([
      ['E_JUNK_LINE', MAIN, undefined],
      ['E_UNKNOWN_RECORD', MAIN, 'chat format 1'],
    ]);
    expect(run.errors).toEqual([]);
  });

  it('a fork counts only its own turns (its updates.jsonl starts with copies of the parent\'s); forked sub-agents stay hidden', async () => {
    const FORK = '0199e0cc-5555-7000-8000-00000000f04c';
    const SUB_FORK = '0199e0cc-6666-7000-8000-0000000005bf';
    const project = path.join(sessions, '%2Fhome%2Fdev%2Fmy%20site');
    const turn = (sessionId: string, eventId: string, usage: object) =>
      `${JSON.stringify({ timestamp: 1773136000, method: '_x.ai/session/update', params: { sessionId, update: { sessionUpdate: 'turn_completed', usage }, _meta: { eventId, agentTimestampMs: 1773136000000 } } })}\n`;
    const write = async (id: string, summary: object, updates: string) => {
      await mkdir(path.join(project, id), { recursive: true });
      await writeFile(path.join(project, id, 'summary.json'), JSON.stringify({ info: { id }, created_at: '2026-03-10T12:10:00Z', chat_format_version: 1, ...summary }));
      await writeFile(path.join(project, id, 'chat_history.jsonl'), `${JSON.stringify({ type: 'user', content: 'try a darker theme' })}\n`);
      await writeFile(path.join(project, id, 'updates.jsonl'), updates);
    };
    // The fork rewrote the copied lines' sessionId, not their event ids.
    await write(
      FORK,
      { session_kind: 'fork', parent_session_id: SITE },
      turn(FORK, `${SITE}-0003`, { inputTokens: 42000, outputTokens: 1800, cachedReadTokens: 36000, costUsdTicks: 1250000000 }) +
        turn(FORK, `${FORK}-0001`, { inputTokens: 9000, outputTokens: 500, cachedReadTokens: 8000, costUsdTicks: 200000000 }),
    );
    await write(SUB_FORK, { session_kind: 'subagent_fork', parent_session_id: SITE }, '');
    const all = (await fx.once(grok)).sessions();
    expect(all.get(FORK)?.tokens).toEqual({ input: 1000, output: 500, cacheCreation: 0, cacheRead: 8000 });
    expect(all.get(FORK)?.recordedCostUsd).toBeCloseTo(0.02, 12);
    expect(all.get(FORK)).toMatchObject({ isSidechain: false, resumeCommand: `grok --resume ${FORK}` });
    expect(all.get(SUB_FORK)).toMatchObject({ isSidechain: true, resumeCommand: '' });
    // The parent is as it was.
    expect(all.get(SITE)?.recordedCostUsd).toBeCloseTo(0.17, 12);
  });

  it('follows appends, title changes, a new session directory, a rewind and a deletion', async () => {
    const run = await fx.ready(grok);
    const chat = path.join(mainDir, 'chat_history.jsonl');
    await appendFile(chat, 'ch it\\n</user_query>"}],"prompt_index":1}\n');
    await waitFor('the finished prompt', () => run.sessions().get(MAIN)?.userMessages === 2);
    await appendFile(chat, '{"type":"assistant","content":"","tool_calls":[{"id":"call-9","name":"edit_file","arguments":"{\\"path\\":\\"lexer/escape.go\\"}"}]}\n');
    await waitFor('the tool call', () => run.sessions().get(MAIN)?.lastTurn === 'tool_call');
    expect(run.sessions().get(MAIN)).toMatchObject({ lastFileWrite: 'lexer/escape.go', pendingTools: [{ name: 'edit_file', callId: 'call-9' }] });

    const summary = JSON.parse(await readFile(path.join(mainDir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(mainDir, 'summary.json'), JSON.stringify({ ...summary, generated_title: 'Escape decoding, 4 hex digits' }));
    await waitFor('the new title', () => run.sessions().get(MAIN)?.agentName === 'Escape decoding, 4 hex digits');

    const fresh = path.join(sessions, '%2Ftmp%2Fnew', '0199e0cc-5555-7000-8000-000000000001');
    await mkdir(fresh, { recursive: true });
    await writeFile(path.join(fresh, 'summary.json'), JSON.stringify({ info: { id: '0199e0cc-5555-7000-8000-000000000001' }, created_at: '2026-03-10T13:00:00Z' }));
    await writeFile(path.join(fresh, 'chat_history.jsonl'), '{"type":"user","content":[{"type":"text","text":"<user_query>hi</user_query>"}]}\n');
    await waitFor('the new session', () => run.sessions().get('0199e0cc-5555-7000-8000-000000000001')?.userMessages === 1);
    expect(run.sessions().get('0199e0cc-5555-7000-8000-000000000001')?.cwd).toBe('/tmp/new');

    // /rewind truncates the conversation: the session is replayed from its first byte.
    const lines = (await readFile(chat, 'utf8')).split('\n');
    await truncate(chat, lines.slice(0, 4).join('\n').length + 1);
    await waitFor('the replay', () => run.sessions().get(MAIN)?.lastTurn === 'user');
    expect(run.sessions().get(MAIN)).toMatchObject({ userMessages: 1, assistantMessages: 0, agentName: 'Escape decoding, 4 hex digits' });
    expect(run.events.some((e) => e.type === 'reset' && e.sessionId === MAIN)).toBe(true);

    await rm(mainDir, { recursive: true });
    await waitFor('the removal', () => !run.sessions().has(MAIN));
    expect(run.errors).toEqual([]);
  });

  it('follows usage as turns complete, and a turn record in another shape is a diagnostic that adds nothing', async () => {
    const siteDir = path.join(sessions, '%2Fhome%2Fdev%2Fmy%20site', SITE);
    const run = await fx.ready(grok);
    expect(run.sessions().get(SITE)?.tokens.cacheRead).toBe(51_000);
    const turn = (usage: unknown) =>
      `${JSON.stringify({ timestamp: 1773135900, method: '_x.ai/session/update', params: { sessionId: SITE, update: { sessionUpdate: 'turn_completed', usage }, _meta: { agentTimestampMs: 1773135900000 } } })}\n`;
    await appendFile(path.join(siteDir, 'updates.jsonl'), turn({ inputTokens: 5000, outputTokens: 100, cachedReadTokens: 4000, cacheCreationTokens: 0, costUsdTicks: 300000000 }));
    await waitFor('the new turn', () => run.sessions().get(SITE)?.tokens.cacheRead === 55_000);
    expect(run.sessions().get(SITE)?.tokens).toEqual({ input: 10_000, output: 2_500, cacheCreation: 0, cacheRead: 55_000 });
    expect(run.sessions().get(SITE)?.recordedCostUsd).toBeCloseTo(0.2, 12);
    await appendFile(path.join(siteDir, 'updates.jsonl'), turn('n/a'));
    await waitFor('the diagnostic', () => run.diagnostics().some((d) => d.code === 'E_SCHEMA' && d.sessionId === SITE));
    expect(run.sessions().get(SITE)?.tokens.cacheRead).toBe(55_000);
    expect(run.errors).toEqual([]);
  });

  it('a cancelled or failed turn (usage null, or no usage as older builds wrote it) adds nothing and is no diagnostic', async () => {
    const siteDir = path.join(sessions, '%2Fhome%2Fdev%2Fmy%20site', SITE);
    const turn = (update: Record<string, unknown>) =>
      `${JSON.stringify({ timestamp: 1773135900, method: '_x.ai/session/update', params: { sessionId: SITE, update: { sessionUpdate: 'turn_completed', ...update }, _meta: { agentTimestampMs: 1773135900000 } } })}\n`;
    await appendFile(path.join(siteDir, 'updates.jsonl'), turn({ stop_reason: 'cancelled', usage: null }) + turn({ stop_reason: 'error', usage: null }) + turn({ stop_reason: 'end_turn' }));
    const run = await fx.once(grok);
    expect(run.sessions().get(SITE)?.tokens).toEqual({ input: 9_000, output: 2_400, cacheCreation: 0, cacheRead: 51_000 });
    expect(run.diagnostics().filter((d) => d.sessionId === SITE)).toEqual([]);
  });

  it('a warm start keeps the usage of updates.jsonl without reading it again, and reads only what was appended', async () => {
    const siteDir = path.join(sessions, '%2Fhome%2Fdev%2Fmy%20site', SITE);
    const old = new Date(Date.now() - 60_000);
    await utimes(path.join(siteDir, 'updates.jsonl'), old, old);
    await startWithCache(fx, grok);
    // Unchanged since: its ledger is neither read nor written again.
    const cache = openDiscoveryCache(fx.home.env);
    const remembered: string[] = [];
    try {
      await fx.once(grok, { cache: { ...cache, rememberSideText: (file, agent, text) => (remembered.push(file), cache.rememberSideText(file, agent, text)) } });
    } finally {
      cache.close();
    }
    expect(remembered.filter((file) => file.endsWith('updates.jsonl'))).toEqual([]);
    // Changed behind the ledger's back at the same size and mtime: only a read would see it.
    const updates = path.join(siteDir, 'updates.jsonl');
    await writeFile(updates, (await readFile(updates, 'utf8')).replace('"costUsdTicks":1250000000', '"costUsdTicks":9250000000'));
    await utimes(updates, old, old);
    const warm = await startWithCache(fx, grok);
    expect(warm.events.filter((e) => 'sessionId' in e && e.sessionId === SITE && e.type !== 'diagnostic').map((e) => e.type)).toEqual(['restore']);
    expect(warm.sessions().get(SITE)?.recordedCostUsd).toBeCloseTo(0.17, 12);
    // An appended turn is read from where the ledger stopped: the old lines are not counted again.
    await appendFile(updates, `${JSON.stringify({ method: '_x.ai/session/update', params: { update: { sessionUpdate: 'turn_completed', usage: { inputTokens: 10, outputTokens: 1, costUsdTicks: 100000000 } } } })}\n`);
    const again = await startWithCache(fx, grok);
    expect(again.sessions().get(SITE)?.recordedCostUsd).toBeCloseTo(0.18, 12);
    expect(again.sessions().get(SITE)?.tokens).toEqual({ input: 9_010, output: 2_401, cacheCreation: 0, cacheRead: 51_000 });
  });

  it('skips an oversized line with a diagnostic and keeps reading after it', async () => {
    const chat = path.join(mainDir, 'chat_history.jsonl');
    await writeFile(chat, `{"type":"tool_result","content":"${'x'.repeat(5000)}","tool_call_id":"c"}\n{"type":"user","content":"after the big one"}\n`);
    const run = await fx.once(createGrokSource({ read: { maxLineBytes: 1024 } }));
    expect(run.sessions().get(MAIN)).toMatchObject({ userMessages: 1, lastTurn: 'user' });
    expect(run.diagnostics().filter((d) => d.sessionId === MAIN).map((d) => d.code)).toEqual(['E_OVERSIZED_LINE']);
    // The sub-agent's fixture holds a 3.7 KB tool result (a long grep listing): over this cap too.
    expect(run.diagnostics().filter((d) => d.sessionId === SUB).map((d) => d.code)).toEqual(['E_OVERSIZED_LINE']);
    expect(run.sessions().get(SUB)).toMatchObject({ userMessages: 1, assistantMessages: 1, lastTurn: 'assistant' });
  });

  it('warm-starts from the discovery cache and reads only what was appended since', async () => {
    const cache = openDiscoveryCache(fx.home.env);
    try {
      let run = await fx.once(grok);
      const coldCodes = run.diagnostics().filter((d) => d.sessionId !== undefined).map((d) => d.code).sort();
      const states = [...run.sessions().values()].filter((s) => s.checkpoint);
      cache.write(
        states.map(cachedFileOf),
        [],
      );
      await appendFile(path.join(mainDir, 'chat_history.jsonl'), 'ch it\\n</user_query>"}]}\n');
      run = await fx.once(grok, { cache });
      expect(run.events.filter((e) => e.type === 'restore').length).toBe(4);
      // Only the appended prompt was parsed: no diagnostics for the old junk, one new turn...
      expect(run.events.filter((e) => e.type === 'turn' && e.sessionId === MAIN)).toHaveLength(1);
      expect(run.diagnostics().filter((d) => d.count === undefined)).toEqual([]);
      // ...but what the cold start found is counted again, from the checkpoints (kept-diagnostics.ts).
      expect(run.diagnostics().flatMap((d) => Array<string>(d.count ?? 1).fill(d.code)).sort()).toEqual(coldCodes);
      expect(run.sessions().get(MAIN)).toMatchObject({ userMessages: 2, assistantMessages: 1, lastTurn: 'user' });
    } finally {
      cache.close();
    }
  });

  it('a warm start stats the summaries of sessions at rest, without reading them; a changed one is read', async () => {
    const old = new Date(Date.now() - 60_000);
    const summaries = (await readdir(sessions, { recursive: true })).filter((f) => f.endsWith('summary.json')).map((f) => path.join(sessions, f));
    expect(summaries.length).toBe(4);
    for (const file of summaries) await utimes(file, old, old);
    await startWithCache(fx, grok);
    // Another title of the same length, the size and mtime put back: only a read would see it.
    const summary = path.join(mainDir, 'summary.json');
    await writeFile(summary, (await readFile(summary, 'utf8')).replace('Fix JSON parser escape bug', 'Fix JSON parser ESCAPE bug'));
    await utimes(summary, old, old);
    const warm = await startWithCache(fx, grok);
    expect(warm.sessions().get(MAIN)?.agentName).toBe('Fix JSON parser escape bug');
    expect(warm.events.filter((e) => e.type === 'restore')).toHaveLength(4);
    // Its mtime moves: read, and the new title reaches the restored session.
    const later = new Date(old.getTime() + 1_000);
    await utimes(summary, later, later);
    const again = await startWithCache(fx, grok);
    expect(again.sessions().get(MAIN)?.agentName).toBe('Fix JSON parser ESCAPE bug');
  });

  it('restores an untouched session with nothing else: its summary says what the restored state holds', async () => {
    const cache = openDiscoveryCache(fx.home.env);
    try {
      const cold = await fx.once(grok);
      cache.write([...cold.sessions().values()].filter((s) => s.checkpoint).map(cachedFileOf), []);
      const warm = await fx.once(grok, { cache });
      const untouched = [...cold.sessions().values()].filter((s) => s.checkpoint).map((s) => s.sessionId);
      for (const id of untouched) {
        expect(warm.events.filter((e) => 'sessionId' in e && e.sessionId === id && e.type !== 'diagnostic').map((e) => e.type)).toEqual(['restore']);
      }
      expect([...warm.sessions().values()].map(({ checkpoint: _c, ...rest }) => rest)).toEqual([...cold.sessions().values()].map(({ checkpoint: _c, ...rest }) => rest));
    } finally {
      cache.close();
    }
  });

  it('reads a transcript rewritten in place at the same size while nobody watched from its first byte', async () => {
    const cache = openDiscoveryCache(fx.home.env);
    try {
      let run = await fx.once(grok);
      cache.write([...run.sessions().values()].filter((s) => s.checkpoint).map(cachedFileOf), []);
      const chat = path.join(mainDir, 'chat_history.jsonl');
      await writeFile(chat, (await readFile(chat, 'utf8')).replace('<user_query>', '<user_QUERY>'));
      await utimes(chat, new Date(), new Date(Date.now() + 5000));
      run = await fx.once(grok, { cache });
      expect(run.events.filter((e) => e.type === 'restore' && e.sessionId === MAIN)).toEqual([]);
      // The prompt is no longer wrapped in <user_query>: the fresh read sees the new bytes.
      expect(run.events.some((e) => e.type === 'turn' && e.sessionId === MAIN && (e.text ?? '').includes('<user_QUERY>'))).toBe(true);
    } finally {
      cache.close();
    }
  });

  it('reads a newer chat format with one diagnostic, and waits for a torn summary.json', async () => {
    const summary = JSON.parse(await readFile(path.join(mainDir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(mainDir, 'summary.json'), JSON.stringify({ ...summary, chat_format_version: 2 }));
    const site = path.join(sessions, '%2Fhome%2Fdev%2Fmy%20site', SITE);
    await writeFile(path.join(site, 'summary.json'), '{"info": {"id": "0199e0bb-44');
    const run = await fx.once(grok);
    expect(run.sessions().get(MAIN)?.userMessages).toBe(1);
    expect(run.sessions().has(SITE)).toBe(false);
    const codes = run.diagnostics().map((d) => `${d.code} ${d.message}`);
    expect(codes.filter((c) => c.includes('chat format 2 is newer'))).toEqual([expect.stringMatching(/^E_UNKNOWN_RECORD /)]);
    expect(run.diagnostics().filter((d) => d.path === path.join(site, 'summary.json')).map((d) => d.code)).toEqual(['E_SCHEMA']);
  });
});
