import path from 'node:path';
import { z } from 'zod';
import { homeDir } from '../../config/paths.js';
import { normalizeBase, type LimitsCtx } from '../../limits/context.js';
import { envValue, readCredentialFile } from '../../limits/credential-file.js';
import { snippet, type HttpResponse } from '../../limits/http.js';
import { rateLimitSuffix, runProvider, type LimitsProvider, type ProviderSpec } from '../../limits/provider.js';
import { LimitError, type LimitWindow } from '../../limits/types.js';
import { labelForSeconds, ONE_WEEK } from '../../limits/windows.js';
import { countSchema, isoTime, planName } from '../../limits/provider-fields.js';

const credentialSchema = z.object({ access_token: z.string() });

/** Counts arrive as digit strings; `used` is omitted when 0, then `remaining` tells it. */
const quotaSchema = z
  .object({
    limit: countSchema,
    used: countSchema.optional(),
    remaining: countSchema.optional(),
    resetTime: isoTime,
  })
  .refine((quota) => quota.used !== undefined || quota.remaining !== undefined, { message: 'neither used nor remaining is present' });
type Quota = z.infer<typeof quotaSchema>;

const UNIT_SECONDS = { TIME_UNIT_SECOND: 1, TIME_UNIT_MINUTE: 60, TIME_UNIT_HOUR: 3600, TIME_UNIT_DAY: 86_400, TIME_UNIT_WEEK: 604_800 } as const;

const limitSchema = z.object({
  window: z.object({ duration: z.number().int().positive(), timeUnit: z.enum(Object.keys(UNIT_SECONDS) as [keyof typeof UNIT_SECONDS]) }),
  detail: quotaSchema,
  name: z.string().optional().catch(undefined),
  title: z.string().optional().catch(undefined),
  scope: z.string().optional().catch(undefined),
});

const usagesSchema = z.object({
  usage: quotaSchema,
  limits: z.array(limitSchema).nullish(),
  // Decorative fields: a change there must not hide the figures.
  user: z.object({ membership: z.object({ level: z.string() }) }).optional().catch(undefined),
  parallel: z.object({ limit: countSchema }).optional().catch(undefined),
  totalQuota: z.object({ limit: countSchema, used: countSchema.optional(), remaining: countSchema.optional() }).optional().catch(undefined),
});
type Usages = z.infer<typeof usagesSchema>;

interface KimiCredential {
  readonly token: string;
  readonly secrets: readonly string[];
}

const kimiCredentialsFile = (ctx: Pick<LimitsCtx, 'env'>): string => path.join(homeDir(ctx.env), '.kimi-code', 'credentials', 'kimi-code.json');

const findCredential = async (ctx: LimitsCtx): Promise<KimiCredential | undefined> => {
  const fromEnv = envValue(ctx.env, 'KIMI_CODE_OAUTH_TOKEN');
  if (fromEnv) return { token: fromEnv, secrets: [fromEnv] };
  const file = await readCredentialFile(kimiCredentialsFile(ctx), credentialSchema);
  // NOTE: an empty access_token is the tombstone Kimi writes after a rejected refresh: logged out.
  const token = file?.access_token.trim();
  return token ? { token, secrets: [token] } : undefined;
};

const usedOf = (quota: Pick<Quota, 'limit' | 'used' | 'remaining'>): number => quota.used ?? Math.max(0, quota.limit - (quota.remaining ?? quota.limit));

const quotaWindow = (quota: Quota, label: string, seconds: number, extra: string): LimitWindow | undefined => {
  if (quota.limit <= 0) return undefined;
  const used = usedOf(quota);
  return { label, windowSeconds: seconds, usedPercent: (used / quota.limit) * 100, resetsAt: Date.parse(quota.resetTime), source: `${used} of ${quota.limit} used${extra}` };
};

/** The server's own words from an error body (OpenAI-style or flat), scrubbed and short. */
const serverMessage = (response: HttpResponse, secrets: readonly string[]): string => {
  try {
    const body: unknown = JSON.parse(response.body);
    const parsed = z
      .object({ error: z.union([z.string(), z.object({ message: z.string() })]).optional(), message: z.string().optional(), error_description: z.string().optional(), detail: z.string().optional() })
      .safeParse(body);
    if (parsed.success) {
      const { error, message, error_description: description, detail } = parsed.data;
      const text = (typeof error === 'string' ? error : error?.message) ?? message ?? description ?? detail;
      if (text) return snippet(text, secrets);
    }
  } catch {
    // Not JSON: fall through to the raw snippet.
  }
  return snippet(response.body, secrets);
};

export const kimiProvider: ProviderSpec<KimiCredential, Usages> = {
  agent: 'kimi',
  findCredential,
  noCredentialMessage: 'no Kimi Code login found: run `kimi login` (or set KIMI_CODE_OAUTH_TOKEN)',
  lookedFor: kimiCredentialsFile,
  buildRequest: (base, credential, ctx) => {
    const custom = envValue(ctx.env, 'KIMI_CODE_BASE_URL');
    const customBase = custom === undefined ? undefined : normalizeBase(custom);
    if (custom !== undefined && !customBase) throw new LimitError('E_BAD_URL', `KIMI_CODE_BASE_URL is not an http(s) URL: ${JSON.stringify(custom)}`);
    return { url: customBase ? `${customBase}/usages` : `${base}/coding/v1/usages`, headers: { authorization: `Bearer ${credential.token}`, accept: 'application/json' } };
  },
  describeStatus: (response, credential) => {
    if (response.status === 401) {
      return new LimitError('E_UNAUTHORIZED', `Kimi rejected the token (HTTP 401: ${serverMessage(response, credential.secrets)}): run \`kimi login\` or reopen the Kimi CLI`);
    }
    if (response.status === 404) return new LimitError('E_NOT_FOUND', 'no Kimi Code usage for this account (HTTP 404): is it a Kimi Code subscription?');
    if (response.status === 429) return new LimitError('E_RATE_LIMITED', `rate-limited (HTTP 429)${rateLimitSuffix(response)}; try again later`);
    return undefined;
  },
  schema: usagesSchema,
  toResult: (usages) => {
    // Absolute counts and the parallelism cap, each only when present, go on the Source line.
    const total = usages.totalQuota ? `; total ${usedOf(usages.totalQuota)} of ${usages.totalQuota.limit} used` : '';
    const parallel = usages.parallel ? `; parallel limit ${usages.parallel.limit}` : '';
    const weekly = quotaWindow(usages.usage, 'weekly', ONE_WEEK, ` (weekly quota${total}${parallel})`);
    const rolling = (usages.limits ?? []).map((entry) => {
      const seconds = entry.window.duration * UNIT_SECONDS[entry.window.timeUnit];
      return quotaWindow(entry.detail, entry.name || entry.title || entry.scope || labelForSeconds(seconds), seconds, '');
    });
    const windows = [weekly, ...rolling].filter((w): w is LimitWindow => w !== undefined);
    if (windows.length === 0) throw new LimitError('E_NO_WINDOWS', 'the response holds no quota with a positive limit');
    const plan = usages.user ? planName(usages.user.membership.level) : '';
    return {
      reports: [
        {
          row: 'Kimi',
          windows,
          note: 'read from /coding/v1/usages, the endpoint behind the Kimi Code CLI /status; undocumented, it may change or be revoked by Moonshot AI without notice',
          ...(plan ? { plan } : {}),
        },
      ],
    };
  },
};

/** Kimi's limits, as `agentwatch limits` reads them. */
export const limits: LimitsProvider = (ctx) => runProvider(kimiProvider, ctx);
