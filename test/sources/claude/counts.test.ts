import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { estimateCost, usageCost } from '../../../src/streams/cost.js';
import { toSummary } from '../../../src/streams/views.js';
import { diagnosticsOf, FIXTURES, foldById, parseFile } from '../../helpers/source-harness.js';

const DIR = path.join(FIXTURES, 'claude/counts');
const HUMAN = 'a1c0f7e2-5b3d-4e8a-9c61-2f4d8b7e0a11';
const DESKTOP = 'b2d1e8f3-6c4e-4f9b-8d72-3e5f9c8f1b22';
const HOUR_CACHE = 'c3e2f9a4-7d5f-4a0c-9e83-4f6a0d9c2c33';

const read = async (sessionId: string) => {
  const file = path.join(DIR, `${sessionId}.jsonl`);
  const events = await parseFile(createClaudeParser(file, { kind: 'main', sessionId }, false), file);
  return { events, state: foldById(events).get(sessionId) };
};

describe('claude: counts that match what a person did', () => {
  it('counts the prompts a person typed (origin.kind human), not command output or background notes', async () => {
    const { state } = await read(HUMAN);
    // The question, `!git status`, `/model opus`, "Fix them"; not the shell's or /model's output, nor the task note.
    expect(state?.userMessages).toBe(4);
    expect(state?.assistantMessages).toBe(2);
  });

  it('without origin (older lines): leaves out the second copy of a typed slash command and local command output', async () => {
    const { state } = await read(DESKTOP);
    // The question, /review, /cost, and /review again after an answer.
    expect(state?.userMessages).toBe(4);
  });

  it('knows file-history-delta records and advisor_tool_result blocks, and keeps the advisor\'s tokens', async () => {
    const { events, state } = await read(HUMAN);
    expect(diagnosticsOf(events)).toEqual([]);
    expect(state?.tokens).toEqual({ input: 10 + 12 + 1500, output: 20 + 40 + 300, cacheCreation: 100 + 200, cacheRead: 1000 + 1100 });
  });

  it('marks a session run from the desktop app as desktop, and names a Windows cwd by its last folder', async () => {
    const { state } = await read(DESKTOP);
    expect(state?.source).toBe('desktop');
    expect(state && toSummary(state, { now: Date.parse('2026-11-21T08:05:00Z') })).toMatchObject({ source: 'desktop', short_name: 'billing', cwd: 'C:\\Users\\dev\\billing' });
    expect((await read(HUMAN)).state?.source).toBe('cli');
  });

  it('counts cache writes kept for an hour apart, and prices them at their own rate', async () => {
    const { events, state } = await read(HOUR_CACHE);
    expect(diagnosticsOf(events)).toEqual([]);
    // msg_h1 (written twice, counted once), msg_h2, and msg_h3 whose split is not counts.
    expect(state?.tokens).toEqual({ input: 7, output: 115, cacheCreation: 23_500, cacheRead: 30_000, cacheCreation1h: 22_000 });
    // claude-sonnet-4-5: input $3/M, output $15/M, reads $0.30/M, five-minute writes $3.75/M, one-hour writes $6/M.
    const expected = (7 * 3 + 115 * 15 + 30_000 * 0.3 + 1_500 * 3.75 + 22_000 * 6) / 1e6;
    expect(state && toSummary(state, { now: Date.parse('2026-11-22T09:01:00Z') }).cost_usd).toBeCloseTo(expected, 4);
  });
});


describe('claude: the advisor model prices its own tokens', () => {
  it('an advisor call (Opus inside a Sonnet turn) is priced at the advisor model, the turns at theirs', async () => {
    const { state } = await read(HUMAN);
    const sonnet = { input: 10 + 12, output: 20 + 40, cacheCreation: 100 + 200, cacheRead: 1000 + 1100 };
    const advisor = { input: 1500, output: 300, cacheCreation: 0, cacheRead: 0 };
    expect(state?.tokensByModel['claude-opus-4-6']?.tokens).toEqual(advisor);
    expect(usageCost(state!)).toBeCloseTo(estimateCost('claude-sonnet-4-5-20250929', sonnet)! + estimateCost('claude-opus-4-6', advisor)!, 9);
  });
});
