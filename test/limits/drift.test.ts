import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitAgent } from '../../src/core/agents.js';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import { testCtx } from './helpers/limits-ctx.js';
import { ALL_LOGINS, makeTempHome, type TempHome } from './helpers/temp-home.js';
import { startVendorServer, type VendorServer } from './helpers/vendor-server.js';
import { agentLimits } from '../../src/sources/agents.js';

/** LIMITS-PROVIDERS 6.1: every drifted shape fails that agent with the JSON path, never stale figures. */

let server: VendorServer;
let home: TempHome;

beforeAll(async () => {
  server = await startVendorServer();
  home = await makeTempHome(ALL_LOGINS, server.url);
});
afterAll(async () => {
  await server.close();
  await home.remove();
});

describe('drift: a missing, renamed or wrongly typed field fails that agent clearly', () => {
  const cases: [LimitAgent, string, RegExp][] = [
    ['claude', 'claude/drift-renamed.json', /five_hour: Invalid input/],
    ['claude', 'claude/drift-percent-string.json', /five_hour\.utilization: .*expected number, received string/],
    ['claude', 'claude/drift-missing-reset.json', /five_hour\.resets_at/],
    ['claude', 'claude/partial.json', /not JSON/],
    ['codex', 'codex/drift-renamed.json', /rate_limit\.primary_window\.used_percent/],
    ['codex', 'codex/drift-percent-string.json', /used_percent: .*expected number, received string/],
    ['codex', 'codex/drift-reset-iso.json', /primary_window\.reset_at: .*expected number/],
    ['codex', 'codex/partial.json', /not JSON/],
    ['grok', 'grok/drift-renamed.json', /neither currentPeriod .* nor monthlyLimit/],
    ['grok', 'grok/drift-percent-string.json', /config\.creditUsagePercent/],
    ['grok', 'grok/drift-missing-end.json', /config\.currentPeriod\.end/],
    ['kimi', 'kimi/drift-renamed.json', /usage\.limit/],
    ['kimi', 'kimi/drift-percent-string.json', /usage\.used: expected a digit string|usage\.used/],
    ['kimi', 'kimi/drift-missing-reset.json', /usage\.resetTime/],
    ['cursor', 'cursor/drift-renamed.json', /individualUsage\.plan\.autoPercentUsed: expected a number, the field is missing/],
    ['cursor', 'cursor/drift-percent-string.json', /autoPercentUsed: .*expected number, received string/],
    ['cursor', 'cursor/drift-missing-end.json', /billingCycleEnd/],
    ['cursor', 'cursor/login-page.html', /not JSON.*Sign in - Cursor/],
  ];
  it.each(cases)('%s %s', async (agent, file, message) => {
    server.route(agent, { fixture: file });
    const outcome = (await firstValueFrom(fetchLimits(testCtx(home.env), [agent], agentLimits)))[agent];
    expect(outcome).toMatchObject({ kind: 'failed', agent, code: 'E_SCHEMA_DRIFT' });
    expect(outcome?.kind === 'failed' && outcome.message).toMatch(message);
  });
});
