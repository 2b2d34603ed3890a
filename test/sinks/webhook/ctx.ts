import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { onTestFinished } from 'vitest';
import { toEffective, type Effective } from '../../../src/config/effective.js';
import { backFill } from '../../../src/config/back-fill.js';
import type { Ctx } from '../../../src/sources/contracts.js';

/**
 * A Ctx over a config document (validated by the real schema), logging into an array. Its cache
 * directory (where the webhook queue lives) is a temp dir removed when the test finishes.
 */
export const testCtx = (raw: Record<string, unknown>, scheduler: SchedulerLike = asyncScheduler) => {
  const effective: Effective = toEffective(backFill(raw).filled, {});
  const lines: string[] = [];
  const root = mkdtempSync(path.join(tmpdir(), 'agentwatch-webhook-'));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const ctx: Ctx = {
    config: effective.config,
    env: { HOME: path.join(root, 'home'), XDG_CACHE_HOME: path.join(root, 'cache') },
    scheduler,
    now: () => scheduler.now(),
    platform: 'linux',
    log: {
      info: (m) => lines.push(`info ${m}`),
      warn: (m) => lines.push(`warn ${m}`),
      error: (m) => lines.push(`error ${m}`),
    },
  };
  return { ctx, lines, invalid: effective.invalidWebhooks, root };
};
