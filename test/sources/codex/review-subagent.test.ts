import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { initialFoldState, reduceSessions } from '../../../src/streams/sessions-reducer.js';
import { toDetail } from '../../../src/streams/views.js';

// Codex 0.141 runs `/review` as a thread of its own: `thread_source: "subagent"`, `source:
// {"subagent": "review"}`, and the parent named by `parent_thread_id` beside them, not inside
// `source` as spawned agents have it. Its spend is billed like the parent's own.
const PARENT = '019e5a10-0a0a-7b0b-8c0c-0d0d0e0e0f01';
const REVIEW = '019e5a10-1b1b-7c1c-8d1d-2e2e2f2f3a02';
const fixture = (name: string): string => fileURLToPath(new URL(`../../../fixtures/codex/versions/${name}`, import.meta.url));

const eventsOf = async (name: string, id: string): Promise<SessionEvent[]> => {
  const file = fixture(name);
  const parser = createCodexParser(file, id, false);
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
  return lines.flatMap((line) => parser.line(Buffer.from(line)));
};

describe('Codex 0.141 review thread', () => {
  const fold = async () => {
    const events = [...(await eventsOf('0.141-review-parent.jsonl', PARENT)), ...(await eventsOf('0.141-review-subagent.jsonl', REVIEW))];
    return reduceSessions(initialFoldState([]), events).state.sessions;
  };

  it('is a hidden sub-agent of the thread named by parent_thread_id', async () => {
    const review = (await fold()).get(`codex:${REVIEW}`);
    expect(review).toMatchObject({ isSidechain: true, parentId: PARENT, tokens: { input: 17_000, cacheRead: 17_000, output: 350, cacheCreation: 0 } });
  });

  it('has its spend shown in the parent session, as a sub-agent', async () => {
    const sessions = await fold();
    const parent = sessions.get(`codex:${PARENT}`);
    if (!parent) throw new Error('no parent');
    const detail = toDetail(parent, { now: Date.parse('2026-06-10T10:00:00Z') });
    // gpt-5.5: $5 input, $0.50 cached input, $30 output per million tokens.
    const own = (5_000 * 5 + 15_000 * 0.5 + 500 * 30) / 1e6;
    const reviewCost = (17_000 * 5 + 17_000 * 0.5 + 350 * 30) / 1e6;
    expect(detail.subagents).toMatchObject({ sessions: 1, input_tokens: 17_000, cache_read_tokens: 17_000, output_tokens: 350 });
    expect(detail.subagents.cost_usd).toBeCloseTo(reviewCost, 9);
    expect(detail.cost_usd).toBeCloseTo(own + reviewCost, 9);
  });
});
