import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Source } from '../../src/sources/contracts.js';
import { claude } from '../../src/sources/claude/index.js';
import { codex } from '../../src/sources/codex/index.js';
import { pi } from '../../src/sources/pi/index.js';
import { diagnosticsOf, makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { onePass } from './files-passes.js';

/**
 * A token count no agent writes (beyond 2^53: 1e300) is a schema diagnostic, as in the SQLite
 * sources: two of them added up to Infinity, which JSON sends as null.
 */

const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
const HUGE = 1e300;

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-fuzz-counts-');
});
afterEach(() => home.cleanup());

const write = async (relative: string, text: string): Promise<void> => {
  const file = path.join(home.home, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
};

/** The session is listed with finite totals; `schemaDiagnostics` of E_SCHEMA say why (codex and pi drop a bad usage record without one, noted as left open). */
const expectFinite = async (source: Source, sessionId: string, schemaDiagnostics: number): Promise<void> => {
  const pass = await onePass(source, makeCtx(home.env));
  const state = pass.sessions.get(sessionId);
  expect(state, 'the session is still listed').toBeDefined();
  const tokens = Object.values(state?.tokens ?? {});
  expect(tokens.length).toBeGreaterThan(0);
  for (const value of tokens) expect(value).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
  expect(diagnosticsOf(pass.events).filter((d) => d.code === 'E_SCHEMA')).toHaveLength(schemaDiagnostics);
};

describe('token counts beyond 2^53 are E_SCHEMA, the totals stay finite', () => {
  it('claude', async () => {
    const id = '7a1c0de0-0000-4000-8000-000000000001';
    const answer = (n: number) =>
      line({ type: 'assistant', sessionId: id, uuid: `u${n}`, cwd: '/w', timestamp: `2026-11-01T10:00:0${n}.000Z`, message: { id: `msg_${n}`, role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: HUGE, output_tokens: 1 } } });
    await write(`.claude/projects/-w/${id}.jsonl`, line({ type: 'user', sessionId: id, uuid: 'u0', cwd: '/w', timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'go' } }) + answer(1) + answer(2));
    await expectFinite(claude, id, 2);
  });

  it('codex', async () => {
    const id = '019f3a10-1111-7aaa-8bbb-0000000c0de1';
    const usage = { input_tokens: HUGE, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0, total_tokens: HUGE };
    const count = (t: string) => line({ timestamp: t, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage } } });
    await write(
      `.codex/sessions/2026/11/01/rollout-2026-11-01T10-00-00-${id}.jsonl`,
      line({ timestamp: '2026-11-01T10:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-11-01T10:00:00.000Z', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.116.0' } }) +
        line({ timestamp: '2026-11-01T10:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'go' } }) +
        count('2026-11-01T10:00:02.000Z') +
        count('2026-11-01T10:00:03.000Z'),
    );
    await expectFinite(codex, id, 0);
  });

  it('pi', async () => {
    const id = '9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e51';
    const answer = (n: number) =>
      line({ type: 'message', id: `a${n}`, parentId: `a${n - 1}`, timestamp: `2026-11-01T10:00:0${n}.000Z`, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], model: 'claude-sonnet-4-6', usage: { input: HUGE, output: 1, cacheRead: 0, cacheWrite: 0 }, stopReason: 'stop', timestamp: Date.parse(`2026-11-01T10:00:0${n}.000Z`) } });
    await write(
      `.pi/agent/sessions/--w--/2026-11-01T10-00-00-000Z_${id}.jsonl`,
      line({ type: 'session', version: 3, id, timestamp: '2026-11-01T10:00:00.000Z', cwd: '/w' }) +
        line({ type: 'message', id: 'a0', parentId: null, timestamp: '2026-11-01T10:00:00.500Z', message: { role: 'user', content: [{ type: 'text', text: 'go' }], timestamp: Date.parse('2026-11-01T10:00:00.500Z') } }) +
        answer(1) +
        answer(2),
    );
    await expectFinite(pi, `2026-11-01T10-00-00-000Z_${id}`, 0);
  });
});
