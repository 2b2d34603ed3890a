import path from 'node:path';
import { z } from 'zod';
import { homeDir } from '../../config/paths.js';
import type { LimitsCtx } from '../../limits/context.js';
import { envValue, readCredentialFile } from '../../limits/credential-file.js';
import { rateLimitSuffix, runProvider, type LimitsProvider, type ProviderSpec } from '../../limits/provider.js';
import { LimitError, type LimitWindow } from '../../limits/types.js';
import { countSchema, dollars, isoTime } from '../../limits/provider-fields.js';

/** `~/.grok/auth.json`: an object keyed by login scope; each entry may carry a bearer `key`. */
const authSchema = z.record(z.string(), z.unknown());

/** Proto3 money wrapper; int64 may arrive as a digit string. */
const money = z.object({ val: countSchema });

const unifiedSchema = z.object({
  currentPeriod: z.object({ type: z.string(), start: isoTime, end: isoTime }),
  // NOTE: proto3 JSON omits zero values, so an absent percent is 0 %; a present non-number is drift.
  creditUsagePercent: z.number().min(0).optional(),
  onDemandCap: money.optional(),
});

const legacySchema = z.object({
  monthlyLimit: money,
  used: money,
  billingPeriodStart: isoTime,
  billingPeriodEnd: isoTime,
  onDemandCap: money.optional(),
});

type Billing = ({ kind: 'unified' } & z.infer<typeof unifiedSchema>) | ({ kind: 'legacy' } & z.infer<typeof legacySchema>);

/** Picks the shape by its marker key, so a drift message names the shape's own fields. */
const billingSchema = z.object({ config: z.record(z.string(), z.unknown()) }).transform((value, ctx): Billing => {
  const config = value.config;
  const unified = 'currentPeriod' in config;
  if (!unified && !('monthlyLimit' in config)) {
    ctx.addIssue({ code: 'custom', path: ['config'], message: 'neither currentPeriod (unified billing) nor monthlyLimit (legacy billing) is present' });
    return z.NEVER;
  }
  const parsed = unified ? unifiedSchema.safeParse(config) : legacySchema.safeParse(config);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: ['config', ...issue.path], message: issue.message });
    return z.NEVER;
  }
  return unified ? { kind: 'unified', ...(parsed.data as z.infer<typeof unifiedSchema>) } : { kind: 'legacy', ...(parsed.data as z.infer<typeof legacySchema>) };
});

interface GrokCredential {
  readonly token: string;
  readonly secrets: readonly string[];
}

const firstKey = (auth: Record<string, unknown>): string | undefined => {
  for (const entry of Object.values(auth)) {
    const key = typeof entry === 'object' && entry !== null && 'key' in entry && typeof entry.key === 'string' ? entry.key.trim() : '';
    if (key) return key;
  }
  return undefined;
};

const grokAuthFile = (ctx: Pick<LimitsCtx, 'env'>): string => path.join(homeDir(ctx.env), '.grok', 'auth.json');

const findCredential = async (ctx: LimitsCtx): Promise<GrokCredential | undefined> => {
  const fromEnv = envValue(ctx.env, 'GROK_OAUTH_TOKEN');
  if (fromEnv) return { token: fromEnv, secrets: [fromEnv] };
  const auth = await readCredentialFile(grokAuthFile(ctx), authSchema);
  const token = auth ? firstKey(auth) : undefined;
  return token ? { token, secrets: [token] } : undefined;
};

const PERIOD_LABELS: Readonly<Record<string, string>> = {
  USAGE_PERIOD_TYPE_WEEKLY: 'weekly',
  USAGE_PERIOD_TYPE_MONTHLY: 'monthly',
  USAGE_PERIOD_TYPE_DAILY: 'daily',
};

const capNote = (cap: { val: number } | undefined): string => (cap && cap.val > 0 ? ` (on-demand cap ${dollars(cap.val)})` : '');

const toWindow = (billing: Billing): LimitWindow => {
  if (billing.kind === 'unified') {
    const start = Date.parse(billing.currentPeriod.start);
    const end = Date.parse(billing.currentPeriod.end);
    const label = PERIOD_LABELS[billing.currentPeriod.type] ?? 'period';
    const used = billing.creditUsagePercent ?? 0;
    return { label, windowSeconds: Math.round((end - start) / 1000), usedPercent: used, resetsAt: end, startsAt: start, source: `${used.toFixed(1)}% of ${label} credits used${capNote(billing.onDemandCap)}` };
  }
  if (billing.monthlyLimit.val <= 0) throw new LimitError('E_NO_WINDOWS', 'there is neither a usage period nor a monthly credit limit (no active subscription?)');
  const start = Date.parse(billing.billingPeriodStart);
  const end = Date.parse(billing.billingPeriodEnd);
  // NOTE: the percent is of the included credits; it is not rescaled against the on-demand cap.
  return {
    label: 'monthly',
    windowSeconds: Math.round((end - start) / 1000),
    usedPercent: (billing.used.val / billing.monthlyLimit.val) * 100,
    resetsAt: end,
    startsAt: start,
    source: `${dollars(billing.used.val)} of ${dollars(billing.monthlyLimit.val)} included credits used${capNote(billing.onDemandCap)}`,
  };
};

export const grokProvider: ProviderSpec<GrokCredential, Billing> = {
  agent: 'grok',
  findCredential,
  noCredentialMessage: 'no Grok login found: run `grok login` (or set GROK_OAUTH_TOKEN)',
  lookedFor: grokAuthFile,
  buildRequest: (base, credential) => ({
    url: `${base}/v1/billing?format=credits`,
    // NOTE: the CLI proxy reports `x_xai_token_auth=none` in its 401s without this marker header.
    headers: { authorization: `Bearer ${credential.token}`, accept: 'application/json', 'x-xai-token-auth': 'xai-grok-cli' },
  }),
  describeStatus: (response) => {
    if (response.status === 401) return new LimitError('E_UNAUTHORIZED', 'Grok rejected the token (HTTP 401, expired or revoked): run `grok login` (or set GROK_OAUTH_TOKEN)');
    if (response.status === 403) return new LimitError('E_FORBIDDEN', 'Grok denied access (HTTP 403): this login may lack Grok CLI access; run `grok login`');
    if (response.status === 429) return new LimitError('E_RATE_LIMITED', `rate-limited (HTTP 429)${rateLimitSuffix(response)}; try again later`);
    return undefined;
  },
  schema: billingSchema,
  toResult: (billing) => ({
    reports: [
      {
        row: 'Grok',
        windows: [toWindow(billing)],
        note: 'read from /v1/billing on the Grok CLI proxy, an undocumented xAI endpoint behind the Grok CLI usage command; it may change or be revoked without notice',
      },
    ],
  }),
};

/** Grok's limits, as `agentwatch limits` reads them. */
export const limits: LimitsProvider = (ctx) => runProvider(grokProvider, ctx);
