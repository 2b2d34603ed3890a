import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionState } from '../../src/core/session.js';
import { createAmpSource } from '../../src/sources/amp/index.js';
import { ampThreadsDir } from '../../src/sources/amp/paths.js';
import { claude } from '../../src/sources/claude/index.js';
import { epochMs } from '../../src/sources/internal/line-helpers.js';
import { kimi } from '../../src/sources/kimi/index.js';
import { toDetail, toSummary } from '../../src/streams/views.js';
import { makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { onePass } from './files-passes.js';

/**
 * Regressions property 1 found: a number a damaged record gives as a time, beyond what a `Date`
 * holds (1e21), made the session's views throw (RFC 3339 of it: "Invalid time value"), so one
 * bad line took down the listing; a negative token count took tokens away from the totals.
 */

const line = (record: unknown): string => `${JSON.stringify(record)}\n`;
const NOW = Date.parse('2026-12-01T00:00:00Z');

/** The views of `state` as the API sends them: they must not throw, and must survive JSON. */
const wire = (state: SessionState | undefined): unknown => {
  if (!state) throw new Error('no session');
  return JSON.parse(JSON.stringify({ summary: toSummary(state, { now: NOW }), detail: toDetail(state, { now: NOW }) })) as unknown;
};

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-fuzz-times-');
});
afterEach(() => home.cleanup());

describe('times beyond what a Date holds read as unknown', () => {
  it('epochMs: a number is a time only within Date range', () => {
    expect(epochMs(1e21)).toBe(0);
    expect(epochMs(-5)).toBe(0);
    expect(epochMs(Number.NaN)).toBe(0);
    expect(epochMs(1773136300000)).toBe(1773136300000);
  });

  it('kimi: a wire record dated 1e21 leaves the session listable', async () => {
    const file = path.join(home.home, '.kimi-code/sessions/wd_x_0a0a0a/ses_T1/agents/main/wire.jsonl');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      line({ type: 'metadata', protocol_version: '1.3', created_at: 1e21 }) +
        line({ type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text: 'hi' }], toolCalls: [] }, time: 1e300 }) +
        line({ type: 'usage.record', usage: { inputOther: -500, output: 20, inputCacheRead: 0, inputCacheCreation: 0 }, usageScope: 'turn', time: 1773136301000 }) +
        line({ type: 'turn.end', time: 1773136302000 }),
    );
    const pass = await onePass(kimi, makeCtx(home.env));
    const state = pass.sessions.get('ses_T1');
    expect(() => wire(state)).not.toThrow();
    expect(state).toMatchObject({ createdAt: 0, lastActivityAt: 1773136302000, tokens: { input: 0, output: 20, cacheCreation: 0, cacheRead: 0 } });
  });

  it('amp: a thread with times of 1e21 and a negative token count leaves the session listable, its tokens counted from 0', async () => {
    const id = 'T-0f0f0f0f-0000-7000-8000-0000000000a1';
    const file = path.join(ampThreadsDir(home.env), `${id}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    const thread = {
      id,
      created: 1e21,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }], meta: { sentAt: 1e300 } },
        {
          role: 'assistant',
          messageId: 1,
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {}, startTime: 1e21, finalTime: 1e21 }],
          usage: { inputTokens: 10, outputTokens: -1_000_000, cacheCreationInputTokens: 0, cacheReadInputTokens: 0, timestamp: '2026-03-10T09:00:00Z' },
        },
      ],
    };
    await writeFile(file, JSON.stringify(thread));
    const pass = await onePass(createAmpSource({ exportSync: false }), makeCtx(home.env));
    const state = pass.sessions.get(id);
    expect(() => wire(state)).not.toThrow();
    expect(state).toMatchObject({ createdAt: 0, lastActivityAt: Date.parse('2026-03-10T09:00:00Z'), tokens: { input: 10, output: 0, cacheCreation: 0, cacheRead: 0 } });
  });

  it.each([
    ['1e21', 1e21],
    ['a string', 'yesterday'],
  ])('claude: a Desktop sidecar whose creation time is %s still titles its session, which then has none', async (_what, createdAt) => {
    const sid = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f99';
    const transcript = path.join(home.home, '.claude/projects/-home-dev-x', `${sid}.jsonl`);
    await mkdir(path.dirname(transcript), { recursive: true });
    // An undated record: the session's creation time can only come from the sidecar.
    await writeFile(transcript, line({ type: 'user', cwd: '/home/dev/x', message: { role: 'user', content: 'hi' } }));
    const sidecar = path.join(home.home, 'Library/Application Support/Claude/claude-code-sessions/x/local_1.json');
    await mkdir(path.dirname(sidecar), { recursive: true });
    await writeFile(sidecar, JSON.stringify({ cliSessionId: sid, title: 'From Desktop', createdAt }));
    const pass = await onePass(claude, makeCtx(home.env, { platform: 'darwin' }));
    const state = pass.sessions.get(sid);
    expect(() => wire(state)).not.toThrow();
    expect(state).toMatchObject({ agentName: 'From Desktop', source: 'desktop', createdAt: 0 });
  });
});
