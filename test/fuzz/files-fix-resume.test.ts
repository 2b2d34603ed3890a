import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Source } from '../../src/sources/contracts.js';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { claude } from '../../src/sources/claude/index.js';
import { codex, codexSpec } from '../../src/sources/codex/index.js';
import { kimi } from '../../src/sources/kimi/index.js';
import { pi } from '../../src/sources/pi/index.js';
import { foldById, makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { passWithCache, trackerOf } from './files-passes.js';

/**
 * Regressions the incremental and warm-start properties found: a parser that goes on from a
 * restored state (a warm start after the file grew; a parked parser) must end where one read of
 * the whole file ends. Each case: a first start reads the file as it was, the agent appends, a
 * warm start reads the rest; a cold start of the final file is what it must show.
 */

const line = (record: unknown): string => `${JSON.stringify(record)}\n`;

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-fuzz-fix-');
});
afterEach(() => home.cleanup());

/** Sessions of a warm start after `rest` was appended to `file` (first read as `first`), and of a cold start of the result. */
const warmAndCold = async (source: Source, file: string, first: string, rest: string): Promise<{ warm: Map<string, SessionState>; cold: Map<string, SessionState> }> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, first);
  await passWithCache(source, makeCtx(home.env));
  await appendFile(file, rest);
  const warm = foldById(await passWithCache(source, makeCtx(home.env)));
  const cold = foldById(await passWithCache(source, makeCtx({ ...home.env, XDG_CACHE_HOME: path.join(home.root, 'cold-cache') })));
  return { warm, cold };
};

const withoutCheckpoint = (state: SessionState | undefined): Omit<SessionState, 'checkpoint'> | undefined => {
  if (!state) return undefined;
  const { checkpoint: _checkpoint, ...rest } = state;
  return rest;
};

describe('codex: a parser that goes on from a restored state', () => {
  const ID = '0199e000-0000-7000-8000-0000000000a1';
  const file = (): string => path.join(home.home, '.codex/sessions/2026/03/10', `rollout-2026-03-10T09-00-00-${ID}.jsonl`);
  const meta = line({ timestamp: '2026-03-10T09:00:00.000Z', type: 'session_meta', payload: { id: ID, timestamp: '2026-03-10T09:00:00.000Z', cwd: '/home/dev/shop', cli_version: '0.120.0', originator: 'codex_cli_rs' } });
  const context = line({ timestamp: '2026-03-10T09:00:01.000Z', type: 'turn_context', payload: { cwd: '/home/dev/shop', model: 'gpt-5.2-codex' } });
  const prompt = (at: string): string => line({ timestamp: at, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the cart' }] } });
  const mirror = (at: string): string => line({ timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'fix the cart', images: [] } });

  it('reads the session_meta of a rollout a first start found holding half of it (resumed at byte 0)', async () => {
    const { warm, cold } = await warmAndCold(codex, file(), meta.slice(0, 40), meta.slice(40) + context + prompt('2026-03-10T09:00:02.000Z'));
    expect(warm.get(ID)).toMatchObject({ path: file(), resumeCommand: `codex resume ${ID}`, cwd: '/home/dev/shop', version: '0.120.0', createdAt: Date.parse('2026-03-10T09:00:00.000Z') });
    expect(withoutCheckpoint(warm.get(ID))).toEqual(withoutCheckpoint(cold.get(ID)));
  });

  it('makes an apply_patch path appended after a warm start absolute in the turn folder', async () => {
    const patch = line({
      timestamp: '2026-03-10T09:05:00.000Z',
      type: 'response_item',
      payload: { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/cart.ts\n@@\n-a\n+b\n*** End Patch\n' },
    });
    const { warm, cold } = await warmAndCold(codex, file(), meta + context, patch);
    expect(warm.get(ID)?.lastFileWrite).toBe('/home/dev/shop/src/cart.ts');
    expect(withoutCheckpoint(warm.get(ID))).toEqual(withoutCheckpoint(cold.get(ID)));
  });

  it("counts a prompt once when a warm start falls between its two records (the CLI's item and its event mirror)", async () => {
    const { warm, cold } = await warmAndCold(codex, file(), meta + context + prompt('2026-03-10T09:00:02.010Z'), mirror('2026-03-10T09:00:02.011Z'));
    expect(warm.get(ID)?.userMessages).toBe(1);
    expect(withoutCheckpoint(warm.get(ID))).toEqual(withoutCheckpoint(cold.get(ID)));
  });

  it('says where a session is when the records a first start read said nothing (a damaged first line)', async () => {
    const { warm, cold } = await warmAndCold(codex, file(), '{"timestamp":"2026-03-10T09:00:00.000Z","type":"session_m\n', prompt('2026-03-10T09:00:02.000Z'));
    expect(warm.get(ID)).toMatchObject({ path: file(), resumeCommand: `codex resume ${ID}`, userMessages: 1 });
    expect(withoutCheckpoint(warm.get(ID))).toEqual(withoutCheckpoint(cold.get(ID)));
  });

  it('leaves no empty session under the id of the file name when the session_meta, read later, names another', async () => {
    const other = '0199e000-0000-7000-8000-0000000000b2';
    const named = line({ timestamp: '2026-03-10T09:00:00.000Z', type: 'session_meta', payload: { id: other, cwd: '/home/dev/shop' } });
    const events: SessionEvent[] = [];
    const tracker = trackerOf(codexSpec(makeCtx(home.env)), (event) => events.push(event));
    await mkdir(path.dirname(file()), { recursive: true });
    // The watcher saw the rollout while its first line was being written.
    await writeFile(file(), named.slice(0, 30));
    await tracker.sync(file(), ID);
    await appendFile(file(), named.slice(30) + prompt('2026-03-10T09:00:02.000Z'));
    await tracker.sync(file(), ID);
    expect([...foldById(events).keys()]).toEqual([other]);
  });
});

describe('claude: a parser that goes on from a restored state', () => {
  const SID = '5b9d3e1c-0000-4c6f-8e0d-00000000c1a0';
  const file = (): string => path.join(home.home, '.claude/projects/-home-dev-shop', `${SID}.jsonl`);
  const user = (text: string, at: string, extra: Record<string, unknown> = {}): string =>
    line({ type: 'user', sessionId: SID, cwd: '/home/dev/shop', message: { role: 'user', content: text }, uuid: `u-${at}`, timestamp: at, ...extra });
  const assistant = (block: Record<string, unknown>, at: string): string =>
    line({ type: 'assistant', sessionId: SID, message: { id: 'msg_01', role: 'assistant', model: 'claude-sonnet-4-5', content: [block], usage: { input_tokens: 10, output_tokens: 5 } }, uuid: `a-${at}`, timestamp: at });

  it('takes the creation time from the first dated record when the lines a first start read were undated', async () => {
    const undated = line({ type: 'summary', summary: 'An older conversation', leafUuid: 'elsewhere' }) + line({ type: 'permission-mode', permissionMode: 'default' });
    const { warm, cold } = await warmAndCold(claude, file(), undated, user('hello', '2026-03-10T09:00:00.000Z'));
    expect(warm.get(SID)?.createdAt).toBe(Date.parse('2026-03-10T09:00:00.000Z'));
    expect(withoutCheckpoint(warm.get(SID))).toEqual(withoutCheckpoint(cold.get(SID)));
  });

  it('lets the first message line decide a sidechain file when a first start read none', async () => {
    const undated = line({ type: 'summary', summary: 'An older conversation', leafUuid: 'elsewhere' });
    const { warm, cold } = await warmAndCold(claude, file(), undated, user('a task', '2026-03-10T09:00:00.000Z', { isSidechain: true, parentUuid: null }));
    expect(warm.get(SID)?.isSidechain).toBe(true);
    expect(withoutCheckpoint(warm.get(SID))).toEqual(withoutCheckpoint(cold.get(SID)));
  });

  it('counts a response written over two lines once when a warm start falls between them', async () => {
    const first = user('explain', '2026-03-10T09:00:00.000Z') + assistant({ type: 'text', text: 'Here is why.' }, '2026-03-10T09:00:05.000Z');
    const rest = assistant({ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/home/dev/shop/a.ts' } }, '2026-03-10T09:00:09.000Z');
    const { warm, cold } = await warmAndCold(claude, file(), first, rest);
    expect(warm.get(SID)?.assistantMessages).toBe(1);
    expect(withoutCheckpoint(warm.get(SID))).toEqual(withoutCheckpoint(cold.get(SID)));
  });
});

describe('pi: a parser that goes on from a restored state', () => {
  it('takes the creation time from the first dated entry when the entries a first start read were undated', async () => {
    const stem = '2026-03-10T09-00-00-000Z_0f0f0f0f-0000-4000-8000-0000000000p1';
    const file = path.join(home.home, '.pi/agent/sessions/--home-dev-notes--', `${stem}.jsonl`);
    // Session format 1 wrote a header without a timestamp.
    const header = line({ type: 'session', id: 'p1', cwd: '/home/dev/notes' });
    const prompt = line({ type: 'message', id: 'e1', timestamp: '2026-03-10T09:00:05.000Z', message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } });
    const { warm, cold } = await warmAndCold(pi, file, header, prompt);
    expect(warm.get(stem)?.createdAt).toBe(Date.parse('2026-03-10T09:00:05.000Z'));
    expect(withoutCheckpoint(warm.get(stem))).toEqual(withoutCheckpoint(cold.get(stem)));
  });
});

describe('kimi: a parser that goes on from a restored state', () => {
  it('dates an untimed record appended after a warm start by the restored clock, and resolves its relative path in the restored folder', async () => {
    const file = path.join(home.home, '.kimi-code/sessions/wd_shop_0a0a0a/ses_K1/agents/main/wire.jsonl');
    const first =
      line({ type: 'metadata', protocol_version: '1.3', created_at: 1773136300000 }) +
      line({ type: 'config.update', modelAlias: 'kimi-code/kimi-for-coding', cwd: '/home/dev/shop', time: 1773136300500 }) +
      line({ type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text: 'add a cart' }], toolCalls: [] }, time: 1773136301000 });
    const rest = line({ type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: 'tc_1', name: 'Write', args: { file_path: 'cart.go', content: 'package cart\n' } } });
    const { warm, cold } = await warmAndCold(kimi, file, first, rest);
    expect(warm.get('ses_K1')).toMatchObject({ lastFileWrite: '/home/dev/shop/cart.go', lastFileWriteAt: 1773136301000 });
    expect(withoutCheckpoint(warm.get('ses_K1'))).toEqual(withoutCheckpoint(cold.get('ses_K1')));
  });
});
