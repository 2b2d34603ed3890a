import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../../src/core/session.js';
import { runCli } from '../../helpers/cli.js';
import { installFixture } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

const PARENT = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

describe('claude sub-agent usage in the parent session', () => {
  it('the parent session\'s totals and cost include its subagents/ transcripts, and the detail says how much', async () => {
    home = await makeTempHome();
    await installFixture('claude', home.home);
    const run = await runCli(['sessions', '--all', '--json', '--agent', 'claude'], { env: home.env, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout) as SessionDetail[];
    const parent = list.find((s) => s.session_id === PARENT);
    // The sub-agent's own transcript stays hidden; its usage shows in the parent.
    expect(list.some((s) => s.session_id.startsWith('agent-'))).toBe(false);
    // subagents/agent-a1b2c3d4e5f6.jsonl (7 in, 3 out) and the older agent-3f9a1c2e.jsonl beside it (5 in, 20 out).
    expect(parent?.subagents).toMatchObject({ sessions: 2, input_tokens: 7 + 5, output_tokens: 3 + 20 });
    expect(parent?.subagents.cost_usd).toBeGreaterThan(0);
    const ownCost = (parent?.cost_usd ?? 0) - (parent?.subagents.cost_usd ?? 0);
    expect(ownCost).toBeGreaterThan(0);
    expect(parent?.input_tokens).toBeGreaterThanOrEqual(7);
  });
});
