import type { CliIo } from '../core/io.js';
import { packageField } from '../util/package-json.js';
import { REQUEST_TIMEOUT_MS, userAgentOf, type LimitsCtx } from './context.js';
import { sqliteCursorTokenRead } from './cursor-db.js';
import { gotGet } from './http.js';
import { securityKeychainRead } from './keychain.js';

const FALLBACK_HOMEPAGE = 'https://github.com/agentwatch/agentwatch';

/** The project URL for the honest User-Agent, from our package.json. */
const homepage = (): string => packageField('homepage') ?? FALLBACK_HOMEPAGE;

/** The production context: real HTTP, keychain (macOS only) and Cursor's database; the caller may say where sessions are. */
export const makeLimitsCtx = (io: Pick<CliIo, 'env' | 'platform' | 'version'>, extra: Pick<LimitsCtx, 'sessionsAt'> = {}): LimitsCtx => ({
  ...extra,
  env: io.env,
  platform: io.platform,
  now: () => Date.now(),
  timeoutMs: REQUEST_TIMEOUT_MS,
  userAgent: userAgentOf(io.version, homepage()),
  get: gotGet,
  readKeychain: securityKeychainRead,
  readCursorToken: sqliteCursorTokenRead,
});
