import { z } from 'zod';
import { cursorDbPath } from '../../limits/cursor-db.js';
import type { LimitsCtx } from '../../limits/context.js';
import { LimitError, type LimitReport, type LimitWindow } from '../../limits/types.js';
import { runProvider, type LimitsProvider, type ProviderSpec } from '../../limits/provider.js';
import { dayMonth } from '../../limits/time-format.js';
import { isoTime, planName } from '../../limits/provider-fields.js';

/** Percentages are never accepted as strings; absent ones are checked after the plan is chosen. */
const planSchema = z.object({
  enabled: z.boolean(),
  autoPercentUsed: z.number().min(0).optional(),
  apiPercentUsed: z.number().min(0).optional(),
});
type Plan = z.infer<typeof planSchema>;

const summarySchema = z.object({
  billingCycleStart: isoTime,
  billingCycleEnd: isoTime,
  membershipType: z.string(),
  isUnlimited: z.boolean().optional(),
  individualUsage: z.object({ plan: planSchema.optional() }).optional(),
  teamUsage: z.object({ plan: planSchema.optional() }).optional(),
});
type Summary = z.infer<typeof summarySchema>;

interface CursorCredential {
  readonly token: string;
  readonly userId: string;
  readonly secrets: readonly string[];
}

const jwtClaims = z.object({ sub: z.string().min(1) });

/** The JWT's `sub` without its identity-provider prefix: `auth0|user_01...` -> `user_01...`. */
export const userIdFromToken = (token: string): string | undefined => {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = jwtClaims.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!claims.success) return undefined;
    const sub = claims.data.sub;
    const bar = sub.indexOf('|');
    return bar === -1 ? sub : sub.slice(bar + 1) || undefined;
  } catch {
    return undefined;
  }
};

const findCredential = async (ctx: LimitsCtx): Promise<CursorCredential | undefined> => {
  const token = await ctx.readCursorToken(cursorDbPath(ctx.env, ctx.platform));
  if (!token) return undefined;
  const userId = userIdFromToken(token);
  if (!userId) throw new LimitError('E_BAD_CREDENTIAL', "Cursor's stored access token is not a JWT with a subject (sub) claim: open Cursor and sign in again");
  return { token, userId, secrets: [token, `${userId}%3A%3A${token}`] };
};

const missingPercent = (field: string, where: string): LimitError =>
  new LimitError('E_SCHEMA_DRIFT', `the response shape changed (${where}.${field}: expected a number, the field is missing); not showing stale figures`);

export const cursorProvider: ProviderSpec<CursorCredential, Summary> = {
  agent: 'cursor',
  findCredential,
  noCredentialMessage: 'no Cursor login found in its state.vscdb: open Cursor and sign in',
  lookedFor: (ctx) => `cursorAuth/accessToken of ${cursorDbPath(ctx.env, ctx.platform)}`,
  buildRequest: (base, credential) => ({
    url: `${base}/api/usage-summary`,
    headers: { cookie: `WorkosCursorSessionToken=${credential.userId}%3A%3A${credential.token}`, accept: 'application/json' },
  }),
  describeStatus: (response) => {
    if (response.status === 401 || response.status === 403) {
      return new LimitError(response.status === 401 ? 'E_UNAUTHORIZED' : 'E_FORBIDDEN', `Cursor rejected the session token (HTTP ${response.status}): open Cursor and sign in again`);
    }
    // NOTE: the dashboard answers an expired session with a redirect to its login page.
    if (response.status >= 300 && response.status < 400) {
      return new LimitError('E_UNAUTHORIZED', `Cursor redirected to ${String(response.headers.location ?? 'another page')} (HTTP ${response.status}): the session is probably no longer valid; open Cursor and sign in again`);
    }
    return undefined;
  },
  schema: summarySchema,
  toResult: (summary) => {
    if (summary.isUnlimited) {
      return { skip: 'nothing-to-pace', message: `Cursor reports this account (${summary.membershipType}) as unlimited: there is no budget to pace` };
    }
    const individual = summary.individualUsage?.plan?.enabled ? summary.individualUsage.plan : undefined;
    const team = summary.teamUsage?.plan?.enabled ? summary.teamUsage.plan : undefined;
    const plan: Plan | undefined = individual ?? team;
    if (!plan) return { skip: 'nothing-to-pace', message: 'this Cursor account has no enabled usage plan: there is nothing to pace' };
    const where = individual ? 'individualUsage.plan' : 'teamUsage.plan';
    if (plan.autoPercentUsed === undefined) throw missingPercent('autoPercentUsed', where);
    if (plan.apiPercentUsed === undefined) throw missingPercent('apiPercentUsed', where);

    const start = Date.parse(summary.billingCycleStart);
    const end = Date.parse(summary.billingCycleEnd);
    const name = planName(summary.membershipType);
    const cycle = `cycle ${dayMonth(start)} - ${dayMonth(end)}`;
    const window = (used: number, pool: string): LimitWindow => ({
      label: 'monthly',
      windowSeconds: Math.round((end - start) / 1000),
      usedPercent: used,
      resetsAt: end,
      startsAt: start,
      source: `${used.toFixed(1)}% of the included ${pool} usage${name ? ` (${name})` : ''}, ${cycle}`,
    });
    const note = 'read from /api/usage-summary with the session token in Cursor\'s state.vscdb, an undocumented endpoint that may change or be revoked without notice';
    const reports: LimitReport[] = [
      { row: 'Cursor Models', windows: [window(plan.autoPercentUsed, 'Auto/Composer')], note: `${note}; Models reads lower than the dashboard, which shows the combined total when Auto is selected`, ...(name ? { plan: name } : {}) },
      { row: 'Cursor API', windows: [window(plan.apiPercentUsed, 'API')], note, ...(name ? { plan: name } : {}) },
    ];
    return { reports };
  },
};

/** Cursor's limits, as `agentwatch limits` reads them. */
export const limits: LimitsProvider = (ctx) => runProvider(cursorProvider, ctx);
