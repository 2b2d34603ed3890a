import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claude } from '../../../src/sources/claude/index.js';
import { useFixtureHome } from '../../helpers/source-harness.js';

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';

// Claude Code 2.1.154+ runs a workflow's agents as sub-agents of the session and writes each to
// `<project>/<session>/subagents/workflows/<run>/agent-<id>.jsonl`, beside the run's `journal.jsonl`.
describe('claude workflow agents', () => {
  const fx = useFixtureHome('agentwatch-claude-workflows-', 'claude');

  it('are hidden sub-agents of their session, and their usage rolls up into it; the journal is not a session', async () => {
    const without = (await fx.once(claude)).sessions().get(SID);
    const run = path.join(fx.home.home, '.claude', 'projects', '-home-dev-acme-api', SID, 'subagents', 'workflows', 'wf_01JX7Q');
    await mkdir(run, { recursive: true });
    const line = (record: object): string => `${JSON.stringify({ isSidechain: true, cwd: '/home/dev/acme-api', sessionId: SID, version: '2.1.160', agentId: '9f8e7d', ...record })}\n`;
    await writeFile(
      path.join(run, 'agent-9f8e7d.jsonl'),
      line({ type: 'user', message: { role: 'user', content: 'Check the schema migrations' }, timestamp: '2026-11-20T10:00:00.000Z' }) +
        line({
          type: 'assistant',
          message: { id: 'msg_wf1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Two migrations are out of order.' }], usage: { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 4000 } },
          timestamp: '2026-11-20T10:00:30.000Z',
        }),
    );
    await writeFile(path.join(run, 'journal.jsonl'), `${JSON.stringify({ step: 1, agent: 'agent-9f8e7d', status: 'done' })}\n`);
    const sessions = (await fx.once(claude)).sessions();
    expect(sessions.get('agent-9f8e7d')).toMatchObject({ isSidechain: true, parentId: SID, assistantMessages: 1 });
    expect(sessions.has('journal')).toBe(false);
    // One more sub-agent in the parent's roll-up, with the workflow agent's usage.
    const parent = sessions.get(SID);
    expect(parent?.subagents.sessions).toBe((without?.subagents.sessions ?? 0) + 1);
    expect(parent?.subagents.tokens.cacheRead).toBe((without?.subagents.tokens.cacheRead ?? 0) + 4000);
    expect(parent?.subagents.tokens.input).toBe((without?.subagents.tokens.input ?? 0) + 1200);
  });
});
