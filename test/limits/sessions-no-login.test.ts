import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionsAtOf } from '../../src/app/limits-sessions.js';
import { LIMIT_AGENTS, type LimitAgent } from '../../src/core/agents.js';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import { limitsJson } from '../../src/limits/render-json.js';
import { exitCodeOf, noticeLines, resolveOutcomes } from '../../src/limits/rows.js';
import { limitsText } from '../../src/sinks/tui/limits.js';
import { testConfig } from '../helpers/marbles.js';
import { REF_NOW, testCtx } from './helpers/limits-ctx.js';
import { makeTempHome, writeCursorDb, type TempHome } from './helpers/temp-home.js';
import { agentLimits } from '../../src/sources/agents.js';

let home: TempHome | undefined;
afterEach(async () => {
  await home?.remove();
  home = undefined;
});

/** A session of each agent where its source reads (a Cursor database without a login in it). */
const writeSessions = async (dir: string): Promise<void> => {
  const file = async (...parts: string[]): Promise<void> => {
    await mkdir(path.join(dir, ...parts.slice(0, -1)), { recursive: true });
    await writeFile(path.join(dir, ...parts), '{}\n');
  };
  await file('.claude', 'projects', '-home-dev-shop', 'a.jsonl');
  await file('.codex', 'sessions', '2026', '09', '10', 'rollout-2026-09-10T13-00-00-x.jsonl');
  await file('.grok', 'sessions', 'one', 'chat_history.jsonl');
  await file('.kimi-code', 'sessions', 'wd_1', 's1', 'agents', 'main', 'wire.jsonl');
  await writeCursorDb(path.join(dir, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb'), { 'some/other': 'x' });
};

/** What `limits` should say to run, and the credential it looked for, for each agent. */
const EXPECTED: Record<LimitAgent, { readonly run: string; readonly file: (dir: string) => string }> = {
  claude: { run: 'run `claude` to log in', file: (dir) => path.join(dir, '.claude', '.credentials.json') },
  codex: { run: 'run `codex` to log in', file: (dir) => path.join(dir, '.codex', 'auth.json') },
  grok: { run: 'run `grok login`', file: (dir) => path.join(dir, '.grok', 'auth.json') },
  kimi: { run: 'run `kimi login`', file: (dir) => path.join(dir, '.kimi-code', 'credentials', 'kimi-code.json') },
  cursor: { run: 'open Cursor and sign in', file: (dir) => path.join(dir, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb') },
};

const read = async (withSessions: boolean) => {
  home = await makeTempHome({}, 'http://127.0.0.1:9');
  if (withSessions) await writeSessions(home.dir);
  const sessionsAt = sessionsAtOf(testConfig(), home.env, 'linux');
  return { dir: home.dir, outcomes: await firstValueFrom(fetchLimits(testCtx(home.env, { sessionsAt }), LIMIT_AGENTS, agentLimits)) };
};

describe('an agent with sessions but no login', () => {
  it.each(LIMIT_AGENTS)('%s: says which file was looked for and what to run, also under --agent all', async (agent) => {
    const { dir, outcomes } = await read(true);
    const outcome = outcomes[agent];
    expect(outcome).toMatchObject({ kind: 'skipped', reason: 'no-credential', sessions: expect.any(String) });
    const message = outcome?.kind === 'skipped' ? outcome.message : '';
    expect(message).toContain(EXPECTED[agent].run);
    expect(message).toContain(EXPECTED[agent].file(dir));
    expect(noticeLines(outcomes)).toContain(`Note (${agent}): ${message}`);
    // The JSON (and so the dashboard) carries it on the skipped row; asked by name it is the error.
    expect(limitsJson(outcomes, REF_NOW).rows.find((row) => row.agent === agent)).toMatchObject({ status: 'skipped', error: message });
    expect(resolveOutcomes(outcomes, true)[agent]).toMatchObject({ kind: 'failed', code: 'E_NO_CREDENTIAL', message });
  });

  it('is told in the TUI window too, without the CLI name in front', async () => {
    const { outcomes } = await read(true);
    const text = limitsText(outcomes, REF_NOW, 100);
    expect(text.summary.filter((line) => line.startsWith('Note ('))).toHaveLength(LIMIT_AGENTS.length);
    expect(text.summary.join('\n')).not.toContain('agentwatch limits:');
    expect(exitCodeOf(outcomes)).toBe(1);
  });
});

describe('an agent with neither sessions nor a login', () => {
  it.each(LIMIT_AGENTS)('%s: is skipped silently under --agent all', async (agent) => {
    const { outcomes } = await read(false);
    expect(outcomes[agent]).toMatchObject({ kind: 'skipped', reason: 'no-credential' });
    expect(outcomes[agent]).not.toHaveProperty('sessions');
    expect(noticeLines(outcomes)).toEqual([]);
    expect(limitsJson(outcomes, REF_NOW).rows.find((row) => row.agent === agent)).not.toHaveProperty('error');
  });
});
