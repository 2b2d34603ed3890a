import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { diagnosticsOf, FIXTURES, foldById } from '../../helpers/source-harness.js';

const FILE = path.join(FIXTURES, 'codex/versions/0.160-plan-question.jsonl');
const THREAD = '019f7a01-0c0d-7e11-8a22-3b4c5d6e7f80';

const replay = async (count?: number): Promise<SessionEvent[]> => {
  const parser = createCodexParser(FILE, 'p', false);
  const lines = (await readFile(FILE, 'utf8')).split('\n').filter((line) => line !== '');
  return lines.slice(0, count).flatMap((line) => parser.line(Buffer.from(line)));
};

describe('Codex Plan mode: request_user_input', () => {
  it('a question left open waits for the user, not a tool that runs and then idles', async () => {
    const state = foldById(await replay(7)).get(THREAD);
    if (!state) throw new Error('no session');
    expect(deriveActivity(state, Date.parse('2026-11-26T14:01:00Z'))).toBe('waiting');
    expect(state.recentMessages.at(-1)).toMatchObject({ role: 'assistant', text: 'Keep refunds in the orders table or a new table?' });
  });

  it('the answer ends the wait: the turn goes on', async () => {
    const state = foldById(await replay(8)).get(THREAD);
    if (!state) throw new Error('no session');
    expect(state.pendingTools).toEqual([]);
    expect(deriveActivity(state, Date.parse('2026-11-26T14:03:02Z'))).toBe('thinking');
  });

  it('rate_limits with limit_id, individual_limit and spend_control_reached are no unknown record', async () => {
    const events = await replay();
    expect(diagnosticsOf(events)).toEqual([]);
    expect(foldById(events).get(THREAD)?.tokens).toEqual({ input: 2000, output: 400, cacheCreation: 0, cacheRead: 3000 });
  });
});
