import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import { FIXTURES } from '../helpers/source-harness.js';
import { REF_NOW, testCtx } from './helpers/limits-ctx.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

const ROLLOUT = 'rollout-2026-09-10T13-40-00-0199e0c1-2a3b-7c4d-8e5f-6a7b8c9d0e1f.jsonl';

let home: TempHome | undefined;
afterEach(async () => {
  await home?.remove();
  home = undefined;
});

/** A home with no Codex login, whose Codex wrote one rollout (under `codexHome` inside the home, `.codex` by default). */
const homeWithRollout = async (codexHome = '.codex'): Promise<TempHome> => {
  home = await makeTempHome({}, 'http://127.0.0.1:9');
  const day = path.join(home.dir, codexHome, 'sessions', '2026', '09', '10');
  await mkdir(day, { recursive: true });
  await copyFile(path.join(FIXTURES, 'limits', 'codex-rollout', ROLLOUT), path.join(day, ROLLOUT));
  return home;
};

describe('codex limits from its own session files', () => {
  it('shows the newest windows Codex wrote, with their age, when there is no login', async () => {
    const { env } = await homeWithRollout();
    const outcomes = await firstValueFrom(fetchLimits(testCtx(env), ['codex']));
    expect(outcomes.codex).toMatchObject({
      kind: 'ok',
      reports: [
        {
          row: 'Codex',
          plan: 'Plus',
          windows: [
            { label: '5-hour', windowSeconds: 18_000, usedPercent: 12, resetsAt: 1_789_055_400_000 },
            { label: '7-day', windowSeconds: 604_800, usedPercent: 30, resetsAt: 1_789_400_000_000 },
          ],
        },
      ],
    });
    const note = outcomes.codex?.kind === 'ok' ? outcomes.codex.reports[0]?.note : '';
    expect(note).toContain("from Codex's session file, 3 min ago");
    expect(note).toContain(ROLLOUT);
  });

  it('reads the rollouts under CODEX_HOME', async () => {
    const { env, dir } = await homeWithRollout('codex-home');
    const outcomes = await firstValueFrom(fetchLimits(testCtx({ ...env, CODEX_HOME: path.join(dir, 'codex-home') }), ['codex']));
    expect(outcomes.codex?.kind).toBe('ok');
  });

  it('says which folder it looked in when there is neither a login nor a snapshot', async () => {
    home = await makeTempHome({}, 'http://127.0.0.1:9');
    const outcomes = await firstValueFrom(fetchLimits(testCtx(home.env, { now: () => REF_NOW }), ['codex']));
    expect(outcomes.codex).toMatchObject({ kind: 'skipped', reason: 'no-credential' });
    expect(outcomes.codex?.kind === 'skipped' && outcomes.codex.message).toContain(path.join(home.dir, '.codex', 'sessions'));
  });
});
