import { appendFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoveryCachePath } from '../../../src/sources/internal/cache.js';
import { runCli } from '../../helpers/cli.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { installFixture } from '../../helpers/source-harness.js';

interface Listed {
  readonly agent: string;
  readonly session_id: string;
  readonly agent_name: string;
  readonly user_messages: number;
  readonly last_file_write: string;
  readonly resume_command: string;
  readonly cache_read_tokens: number;
}

/** The claude, codex and pi sources end to end: the built CLI spawned on the fixture HOME. */
describe('agentwatch sessions --all --json over the claude/codex/pi fixtures', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-jsonl-cli-');
    for (const agent of ['claude', 'codex', 'pi'] as const) await installFixture(agent, home.home);
  });
  afterEach(() => home.cleanup());

  const list = async (): Promise<Listed[]> => {
    const result = await runCli(['sessions', '--all', '--json'], { env: home.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as Listed[];
  };

  it('lists the three main sessions (sub-agents hidden) the same cold and warm, and picks up an append', async () => {
    const cold = await list();
    const rows = cold.map((s) => [s.agent, s.agent_name, s.user_messages, s.last_file_write, s.resume_command]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['claude', 'Rate limiter work', 2, '/home/dev/acme-api/server.go', 'claude --resume 6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10'],
        ['codex', 'JPY rounding bug', 1, '/home/dev/billing/internal/invoice/money_test.go', 'codex resume 0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a'],
        ['pi', 'Rename todo file', 1, '/home/dev/notes/README.md', 'pi --session 2026-03-10T09-30-00-123Z_1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d'],
      ]),
    );
    expect(cold).toHaveLength(3);
    const cache = discoveryCachePath(home.env);
    expect((await stat(cache)).mode & 0o777).toBe(0o600);

    expect(await list()).toEqual(cold);

    const pi = path.join(home.home, '.pi/agent/sessions/--home-dev-notes--/2026-03-10T09-30-00-123Z_1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d.jsonl');
    // Completes the fixture's half-written user message.
    await appendFile(pi, 'er","content":"one more thing"}}\n');
    const after = await list();
    expect(after.find((s) => s.agent === 'pi')?.user_messages).toBe(2);
    expect(after.find((s) => s.agent === 'claude')).toEqual(cold.find((s) => s.agent === 'claude'));
  });
});
