import { TestScheduler } from 'rxjs/testing';
import { expect } from 'vitest';
import type { SchedulerLike } from 'rxjs';
import { configSchema } from '../../src/config/schema.js';
import { toEffective, type Config } from '../../src/config/effective.js';
import type { Logger } from '../../src/core/contracts.js';
import type { Ctx } from '../../src/sources/contracts.js';

/** A TestScheduler whose assertions are vitest deep-equality. One `run()` per test. */
export const rx = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/**
 * Virtual time starts at 0, but 0 means "unknown" in records; every test clock is shifted by
 * this epoch (2026-03-10T09:00:00Z) so record timestamps are real dates.
 */
export const EPOCH = Date.UTC(2026, 2, 10, 9, 0, 0);

/** The default configuration, as a fresh install has it, with `overrides` applied. */
export const testConfig = (overrides: Partial<Config> = {}): Config => ({ ...toEffective(configSchema.parse({}), {}).config, ...overrides });

/** Collects log lines instead of printing them. */
export const memoryLogger = (): Logger & { readonly lines: string[] } => {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
};

/** A Ctx on `scheduler` whose clock is `EPOCH + scheduler.now()`. */
export const testCtx = (scheduler: SchedulerLike, config: Config = testConfig()): Ctx => ({
  config,
  env: { HOME: '/nonexistent-test-home' },
  scheduler,
  now: () => EPOCH + scheduler.now(),
  log: memoryLogger(),
  platform: 'linux',
});
