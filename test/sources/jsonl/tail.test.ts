import { appendFile, mkdir, readFile, rename, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { claude } from '../../../src/sources/claude/index.js';
import { codex } from '../../../src/sources/codex/index.js';
import { pi } from '../../../src/sources/pi/index.js';
import { diagnosticsOf, installFixture, makeCtx, useFixtureHome, waitFor, type Run } from '../../helpers/source-harness.js';

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;
const prompt = (text: string, ts: string): string =>
  line({ type: 'user', cwd: '/home/dev/acme-api', message: { role: 'user', content: text }, timestamp: ts });
const userTexts = (run: Run, sessionId = SID): string[] =>
  run.events.flatMap((e) => (e.type === 'turn' && e.role === 'user' && e.sessionId === sessionId && e.text ? [e.text] : []));
const count = (run: Run, type: SessionEvent['type'], sessionId = SID): number => run.events.filter((e) => e.type === type && 'sessionId' in e && e.sessionId === sessionId).length;

describe('JSONL engine on real files with real chokidar (claude layout)', () => {
  const fx = useFixtureHome('agentwatch-tail-', 'claude');
  let project: string;
  let main: string;

  beforeEach(() => {
    project = path.join(fx.home.home, '.claude/projects/-home-dev-acme-api');
    main = path.join(project, `${SID}.jsonl`);
  });

  it('one-shot scan: every transcript once, ready, complete; the partial last line is not read', async () => {
    const run = await fx.once(claude);
    const sessions = run.sessions();
    expect([...sessions.keys()].sort()).toEqual([SID, 'agent-3f9a1c2e', 'agent-a1b2c3d4e5f6'].sort());
    expect(run.events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent: 'claude' }]);
    expect(run.events.at(-1)).toEqual({ type: 'ready', agent: 'claude' });
    const cp = sessions.get(SID)?.checkpoint;
    const text = await readFile(main, 'utf8');
    expect(cp).toMatchObject({ path: main, offset: text.lastIndexOf('\n') + 1, size: Buffer.byteLength(text) });
    expect(diagnosticsOf(run.events).map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_SCHEMA']);
  });

  it('follows a symlinked project directory', async () => {
    const elsewhere = path.join(fx.home.root, 'elsewhere', 'proj');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(path.join(elsewhere, 'linked-session.jsonl'), prompt('from a symlinked project', '2026-03-10T15:00:00.000Z'));
    await symlink(elsewhere, path.join(fx.home.home, '.claude/projects/-linked'));
    const run = await fx.once(claude);
    expect(userTexts(run, 'linked-session')).toEqual(['from a symlinked project']);
  });

  it('Desktop sidecars title and mark their session on macOS', async () => {
    const run = await fx.once(claude, { platform: 'darwin' });
    expect(run.sessions().get(SID)).toMatchObject({ source: 'desktop', agentName: 'Rate limiter (Desktop)', createdAt: 1773134098000 });
    // Sidechains keep their own identity.
    expect(run.sessions().get('agent-3f9a1c2e')).toMatchObject({ source: 'cli' });
    // The state was re-checkpointed after the sidecar meta, so the cache can persist it.
    expect(run.sessions().get(SID)?.checkpoint).not.toBeNull();
  });

  it('follows appends, a completed half line, and two appends 10 ms apart', async () => {
    const run = await fx.ready(claude);
    const before = count(run, 'turn');
    // The writer finishes the half-written assistant line of the fixture.
    await appendFile(main, 'ant","content":[{"type":"text","text":"Test added."}]},"timestamp":"2026-03-10T10:42:00.000Z"}\n');
    await waitFor('completed line', () => run.events.some((e) => e.type === 'turn' && e.text === 'Test added.'));
    expect(count(run, 'turn')).toBe(before + 1);
    await appendFile(main, prompt('first of a burst', '2026-03-10T10:43:00.000Z'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await appendFile(main, prompt('second of a burst', '2026-03-10T10:43:00.010Z'));
    await waitFor('both appends', () => userTexts(run).includes('second of a burst'));
    expect(userTexts(run).slice(-2)).toEqual(['first of a burst', 'second of a burst']);
    const last = run.events.filter((e) => e.type === 'checkpoint').at(-1);
    expect(last?.type === 'checkpoint' && last.checkpoint.offset).toBe(Buffer.byteLength(await readFile(main)));
    expect(run.errors).toEqual([]);
  });

  it('truncation resets and re-reads from 0; a file renamed over the path resets too', async () => {
    const run = await fx.ready(claude);
    await truncate(main, 0);
    await appendFile(main, prompt('after truncation', '2026-03-10T11:00:00.000Z'));
    await waitFor('reset + re-read', () => userTexts(run).includes('after truncation'));
    expect(count(run, 'reset')).toBe(1);
    expect(run.sessions().get(SID)).toMatchObject({ userMessages: 1, assistantMessages: 0 });

    const replacement = path.join(fx.home.root, 'replacement.jsonl');
    await writeFile(replacement, prompt('rotated in', '2026-03-10T12:00:00.000Z') + prompt('rotated again', '2026-03-10T12:00:01.000Z'));
    await rename(replacement, main);
    await waitFor('rotation', () => userTexts(run).includes('rotated again'));
    expect(count(run, 'reset')).toBe(2);
    expect(run.sessions().get(SID)).toMatchObject({ userMessages: 2, path: main });
  });

  it('a deleted transcript is removed; a project directory created later is picked up', async () => {
    const run = await fx.ready(claude);
    await rm(main);
    await waitFor('removed', () => count(run, 'removed') === 1);
    expect(run.sessions().has(SID)).toBe(false);

    const fresh = path.join(fx.home.home, '.claude/projects/-home-dev-new', 'fresh-session.jsonl');
    await mkdir(path.dirname(fresh));
    await writeFile(fresh, prompt('hello from a new project', '2026-03-10T13:00:00.000Z'));
    await waitFor('new project', () => userTexts(run, 'fresh-session').length === 1);
    await appendFile(fresh, prompt('and again', '2026-03-10T13:00:05.000Z'));
    await waitFor('append in new project', () => userTexts(run, 'fresh-session').length === 2);
    expect(run.sessions().get('fresh-session')).toMatchObject({ cwd: '/home/dev/acme-api', resumeCommand: 'claude --resume fresh-session' });
  });

  it('skips a line over 8 MiB with E_OVERSIZED_LINE and keeps reading after it', async () => {
    const run = await fx.ready(claude);
    // Finish the fixture's half line first so the huge record starts on its own line.
    await appendFile(main, '"}}\n');
    const huge = line({ type: 'user', message: { role: 'user', content: 'x'.repeat(9 * 1024 * 1024) }, timestamp: '2026-03-10T14:00:00.000Z' });
    await appendFile(main, huge + prompt('after the giant', '2026-03-10T14:00:01.000Z'));
    await waitFor('line after the giant', () => userTexts(run).includes('after the giant'), 10_000);
    const oversized = diagnosticsOf(run.events).filter((d) => d.code === 'E_OVERSIZED_LINE');
    expect(oversized).toHaveLength(1);
    expect(oversized[0]).toMatchObject({ sessionId: SID, path: main });
    expect(userTexts(run).some((t) => t.startsWith('xxx'))).toBe(false);
  });
});

describe('a record over 8 MiB still moves its session', () => {
  const fx = useFixtureHome('agentwatch-oversized-', 'claude');

  it('claude: a 9 MiB tool result answers its call, and its timestamp is the last activity', async () => {
    const main = path.join(fx.home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
    const run = await fx.ready(claude);
    await appendFile(main, '"}}\n');
    const call = line({
      type: 'assistant',
      cwd: '/home/dev/acme-api',
      message: { id: 'msg_big', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_big', name: 'Read', input: { file_path: '/var/log/huge.log' } }] },
      timestamp: '2026-03-10T14:00:00.000Z',
    });
    // The real shape: the result's ids first, the output, then the record's own timestamp last.
    const result = line({
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: 'toolu_big', type: 'tool_result', content: 'y'.repeat(9 * 1024 * 1024) }] },
      uuid: 'u-big',
      timestamp: '2026-03-10T14:00:05.000Z',
    });
    await appendFile(main, call + result);
    await waitFor('the oversized diagnostic', () => diagnosticsOf(run.events).some((d) => d.code === 'E_OVERSIZED_LINE'), 10_000);
    const state = run.sessions().get(SID);
    expect(state?.lastActivityAt).toBe(Date.parse('2026-03-10T14:00:05.000Z'));
    expect(state?.lastTurn).toBe('tool_result');
    expect(state?.pendingTools).toEqual([]);
    expect(diagnosticsOf(run.events).find((d) => d.code === 'E_OVERSIZED_LINE')?.message).toContain('read from its first and last bytes only');
  });
});

describe('codex and pi on real files', () => {
  const fx = useFixtureHome('agentwatch-tail-');

  it('codex: thread names from session_index.jsonl, newest line winning, also when renamed live', async () => {
    await installFixture('codex', fx.home.home);
    const id = '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a';
    const run = await fx.ready(codex);
    expect(run.sessions().get(id)).toMatchObject({ agentName: 'JPY rounding bug', cwd: '/home/dev/billing' });
    expect(run.sessions().get('0199d2a5-0000-7000-8000-00000000beef')).toMatchObject({ isSidechain: true });
    await appendFile(path.join(fx.home.home, '.codex/session_index.jsonl'), line({ id, thread_name: 'Yen rounding', updated_at: '2026-03-10T10:00:00Z' }));
    await waitFor('rename', () => run.sessions().get(id)?.agentName === 'Yen rounding');
    // The name arrived between reads: the session is re-checkpointed so the cache may keep it.
    expect(run.sessions().get(id)?.checkpoint).not.toBeNull();
  });

  it('codex: session_index.jsonl rewritten to a temp file and renamed over (as Codex does when a thread is deleted) is read again', async () => {
    await installFixture('codex', fx.home.home);
    const id = '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a';
    const run = await fx.ready(codex);
    expect(run.sessions().get(id)?.agentName).toBe('JPY rounding bug');
    const index = path.join(fx.home.home, '.codex/session_index.jsonl');
    await writeFile(`${index}.tmp`, line({ id, thread_name: 'Rounding, rewritten', updated_at: '2026-03-10T11:00:00Z' }));
    await rename(`${index}.tmp`, index);
    await waitFor('rewritten index', () => run.sessions().get(id)?.agentName === 'Rounding, rewritten');
  });

  it('codex: a sessions tree created after start is found; CODEX_HOME is honoured', async () => {
    const codexHome = path.join(fx.home.root, 'codex-home');
    await mkdir(codexHome);
    const run = fx.start(codex, makeCtx({ ...fx.home.env, CODEX_HOME: codexHome }));
    await waitFor('ready', () => run.isReady());
    const file = path.join(codexHome, 'sessions/2026/04/01/rollout-2026-04-01T10-00-00-0199e000-0000-7000-8000-000000000001.jsonl');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, line({ timestamp: '2026-04-01T10:00:00Z', type: 'session_meta', payload: { id: '0199e000-0000-7000-8000-000000000001', cwd: '/w' } }));
    await waitFor('late sessions tree', () => run.sessions().get('0199e000-0000-7000-8000-000000000001')?.cwd === '/w', 8_000);
  });

  it('pi: sessions in a new project directory, sub-agent artifacts hidden', async () => {
    await installFixture('pi', fx.home.home);
    const run = await fx.ready(pi);
    expect(run.sessions().get('5f316403_worker')).toMatchObject({ isSidechain: true });
    const file = path.join(fx.home.home, '.pi/agent/sessions/--home-dev-blog--/2026-03-11T08-00-00-000Z_aa.jsonl');
    await mkdir(path.dirname(file));
    await writeFile(file, line({ type: 'session', version: 3, id: 'aa', timestamp: '2026-03-11T08:00:00.000Z', cwd: '/home/dev/blog' }));
    await waitFor('new pi project', () => run.sessions().get('2026-03-11T08-00-00-000Z_aa')?.cwd === '/home/dev/blog');
  });
});
