import type { Env } from '../../../src/config/paths.js';
import type { LimitsCtx } from '../../../src/limits/context.js';
import { sqliteCursorTokenRead } from '../../../src/limits/cursor-db.js';
import { gotGet } from '../../../src/limits/http.js';
import { securityKeychainRead } from '../../../src/limits/keychain.js';

/** 2026-09-10T14:00:00Z: the instant every fixture's figures are consistent around. */
export const REF_NOW = Date.parse('2026-09-10T14:00:00Z');

/** A production-wired context (real got, real sqlite) on a temp env with a pinned clock. */
export const testCtx = (env: Env, overrides: Partial<LimitsCtx> = {}): LimitsCtx => ({
  env,
  platform: 'linux',
  now: () => REF_NOW,
  timeoutMs: 10_000,
  userAgent: 'agentwatch/0.0.0-test (+https://example.invalid/agentwatch)',
  get: gotGet,
  readKeychain: securityKeychainRead,
  readCursorToken: sqliteCursorTokenRead,
  ...overrides,
});
