import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claude } from '../../src/sources/claude/index.js';
import { diagnosticsOf, useFixtureHome, waitFor } from '../helpers/source-harness.js';

/**
 * A tool result over the line cap (8 MiB) still answers its call. Claude Code writes the output
 * twice on a tool-result line: in the message, then after the record's uuid and timestamp as
 * `toolUseResult`, so the timestamp sits megabytes from either end of the line.
 */

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
const MiB = 1024 * 1024;
const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;
const envelope = { isSidechain: false, userType: 'external', cwd: '/home/dev/acme-api', sessionId: SID, version: '2.0.31', gitBranch: 'main' };

describe('a 20 MiB tool result', () => {
  const fx = useFixtureHome('agentwatch-rel-oversized-', 'claude');

  it('answers its call, moves the session to its timestamp and is still a diagnostic', async () => {
    const main = path.join(fx.home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
    const run = await fx.ready(claude);
    // Finish the fixture's half line first so the records start on their own lines.
    await appendFile(main, '"}}\n');
    const call = line({
      parentUuid: 'a1',
      ...envelope,
      type: 'assistant',
      message: { id: 'msg_big', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_big', name: 'Bash', input: { command: 'cat build.log' } }] },
      uuid: 'a2',
      timestamp: '2026-03-10T14:00:00.000Z',
    });
    const output = 'build step ok\n'.repeat((10 * MiB) / 14);
    const result = line({
      parentUuid: 'a2',
      ...envelope,
      type: 'user',
      message: { role: 'user', content: [{ tool_use_id: 'toolu_big', type: 'tool_result', content: output, is_error: false }] },
      uuid: 'a3',
      timestamp: '2026-03-10T14:00:05.000Z',
      toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
    });
    expect(Buffer.byteLength(result)).toBeGreaterThan(20 * MiB);
    await appendFile(main, call + result);
    await waitFor('the oversized diagnostic', () => diagnosticsOf(run.events).some((d) => d.code === 'E_OVERSIZED_LINE'), 20_000);
    const state = run.sessions().get(SID);
    expect(state?.lastActivityAt).toBe(Date.parse('2026-03-10T14:00:05.000Z'));
    expect(state?.lastTurn).toBe('tool_result');
    expect(state?.pendingTools).toEqual([]);
    expect(run.events.filter((e) => e.type === 'tool_result' && e.callId === 'toolu_big')).toHaveLength(1);
    expect(diagnosticsOf(run.events).filter((d) => d.code === 'E_OVERSIZED_LINE')).toEqual([expect.objectContaining({ sessionId: SID, path: main })]);
  });
});
