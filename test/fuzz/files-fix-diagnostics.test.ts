import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { createAmpSource } from '../../src/sources/amp/index.js';
import { ampThreadsDir } from '../../src/sources/amp/paths.js';
import { grok } from '../../src/sources/grok/index.js';
import { grokSessionsDir } from '../../src/sources/grok/paths.js';
import { createGrokReader } from '../../src/sources/grok/session-reader.js';
import { makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { diagnosticCounts } from './files-checks.js';
import { passWithCache } from './files-passes.js';

/**
 * Regressions the warm-start and incremental properties found in the counts of diagnostics: a
 * warm start must count what a cold start of the same files counts (the JSONL engine keeps them
 * in each checkpoint; grok and amp kept none), and one bad file is one finding, not one more on
 * every change of the files beside it.
 */

const line = (record: unknown): string => `${JSON.stringify(record)}\n`;

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-fuzz-diag-');
});
afterEach(() => home.cleanup());

const grokSession = async (summary: string, chat: string): Promise<string> => {
  const dir = path.join(grokSessionsDir(home.env), '%2Fhome%2Fdev%2Fx', '0199e0aa-9999-7000-8000-00000000d1a9');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'summary.json'), summary);
  await writeFile(path.join(dir, 'chat_history.jsonl'), chat);
  return dir;
};

const goodSummary = JSON.stringify({ info: { id: '0199e0aa-9999-7000-8000-00000000d1a9', cwd: '/home/dev/x' }, last_active_at: '2026-03-10T09:00:00Z', chat_format_version: 1 });

describe('grok', () => {
  it('reports a summary.json that is no summary once, however often the transcript beside it grows', async () => {
    const dir = await grokSession('{"info": "torn', line({ type: 'user', content: 'hi' }));
    const events: SessionEvent[] = [];
    const reader = createGrokReader((event) => events.push(event));
    for (let i = 0; i < 3; i++) {
      await appendFile(path.join(dir, 'chat_history.jsonl'), line({ type: 'user', content: `more ${i}` }));
      await reader.sync(dir);
    }
    expect(events.filter((e) => e.type === 'diagnostic').map((e) => e.type === 'diagnostic' && e.code)).toEqual(['E_SCHEMA']);
  });

  it('a warm start counts the junk lines the cold start found', async () => {
    await grokSession(goodSummary, `${line({ type: 'user', content: 'hi' })}not json\n${line({ type: 'mystery' })}`);
    const cold = await passWithCache(grok, makeCtx(home.env));
    const warm = await passWithCache(grok, makeCtx(home.env));
    expect(warm.some((e) => e.type === 'restore')).toBe(true);
    expect(diagnosticCounts(cold)).toEqual({ 'grok:E_JUNK_LINE': 1, 'grok:E_UNKNOWN_RECORD': 1 });
    expect(diagnosticCounts(warm)).toEqual(diagnosticCounts(cold));
  });
});

describe('amp', () => {
  it('a warm start counts the bad messages and unknown blocks the cold start found', async () => {
    const id = 'T-0f0f0f0f-0000-7000-8000-0000000000d1';
    const file = path.join(ampThreadsDir(home.env), `${id}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    const thread = {
      id,
      created: 1773136300000,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'hologram' }], meta: { sentAt: 1773136300100 } }, { content: 'no role' }],
    };
    await writeFile(file, JSON.stringify(thread));
    const source = createAmpSource({ exportSync: false });
    const cold = await passWithCache(source, makeCtx(home.env));
    const warm = await passWithCache(source, makeCtx(home.env));
    expect(warm.some((e) => e.type === 'restore')).toBe(true);
    expect(diagnosticCounts(cold)).toEqual({ 'amp:E_SCHEMA': 1, 'amp:E_UNKNOWN_RECORD': 1 });
    expect(diagnosticCounts(warm)).toEqual(diagnosticCounts(cold));
  });
});
