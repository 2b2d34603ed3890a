import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { toEffective, type Effective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import type { Ctx } from '../../../src/core/contracts.js';

/** A Ctx over a config document (validated by the real schema), logging into an array. */
export const testCtx = (raw: Record<string, unknown>, scheduler: SchedulerLike = asyncScheduler) => {
  const effective: Effective = toEffective(configSchema.parse(raw), {});
  const lines: string[] = [];
  const ctx: Ctx = {
    config: effective.config,
    env: { HOME: '/nonexistent' },
    scheduler,
    now: () => scheduler.now(),
    platform: 'linux',
    log: {
      info: (m) => lines.push(`info ${m}`),
      warn: (m) => lines.push(`warn ${m}`),
      error: (m) => lines.push(`error ${m}`),
    },
  };
  return { ctx, lines, invalid: effective.invalidWebhooks };
};
