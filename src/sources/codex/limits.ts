import { forkJoin, from, map } from 'rxjs';
import path from 'node:path';
import { z } from 'zod';
import { homeDir } from '../../config/paths.js';
import type { LimitsCtx } from '../../limits/context.js';
import { envValue, readCredentialFile } from '../../limits/credential-file.js';
import { rateLimitSuffix, runProvider, type LimitsProvider, type ProviderSpec } from '../../limits/provider.js';
import { LimitError, type LimitWindow } from '../../limits/types.js';
import { labelForSeconds } from '../../limits/windows.js';
import { planName } from '../../limits/provider-fields.js';
import { codexSessionsRoot, newestCodexSnapshot, withCodexSnapshot } from './limits-snapshot.js';

const authSchema = z.object({
  tokens: z
    .object({
      access_token: z.string(),
      account_id: z.string().nullish(),
    })
    .nullish(),
});

/** Times are integer epoch seconds; a string there is drift, not something to guess at. */
const windowSchema = z.object({
  used_percent: z.number().min(0),
  limit_window_seconds: z.number().int(),
  reset_at: z.number().int(),
  reset_after_seconds: z.number().int().optional(),
});

const usageSchema = z.object({
  plan_type: z.string(),
  rate_limit: z
    .object({
      primary_window: windowSchema.nullable(),
      secondary_window: windowSchema.nullable(),
    })
    .nullable(),
});
type Usage = z.infer<typeof usageSchema>;

interface CodexCredential {
  readonly token: string;
  readonly accountId?: string;
  readonly secrets: readonly string[];
}

const codexAuthFile = (ctx: Pick<LimitsCtx, 'env'>): string => path.join(envValue(ctx.env, 'CODEX_HOME') ?? path.join(homeDir(ctx.env), '.codex'), 'auth.json');

const findCredential = async (ctx: LimitsCtx): Promise<CodexCredential | undefined> => {
  const fromEnv = envValue(ctx.env, 'CODEX_OAUTH_TOKEN');
  if (fromEnv) {
    const accountId = envValue(ctx.env, 'CODEX_ACCOUNT_ID');
    return { token: fromEnv, secrets: [fromEnv], ...(accountId ? { accountId } : {}) };
  }
  const auth = await readCredentialFile(codexAuthFile(ctx), authSchema);
  const token = auth?.tokens?.access_token.trim();
  if (!token) return undefined;
  const accountId = auth?.tokens?.account_id?.trim();
  return { token, secrets: [token], ...(accountId ? { accountId } : {}) };
};

type CodexWindow = NonNullable<NonNullable<Usage['rate_limit']>['primary_window']>;

/** Identified by its reported length, never by slot: weekly-only accounts report it as primary. */
const toWindow = (value: CodexWindow, now: number): LimitWindow => {
  const resetsAt = value.reset_at > 0 ? value.reset_at * 1000 : value.reset_after_seconds && value.reset_after_seconds > 0 ? now + value.reset_after_seconds * 1000 : null;
  return { label: labelForSeconds(value.limit_window_seconds), windowSeconds: value.limit_window_seconds, usedPercent: value.used_percent, resetsAt };
};

export const codexProvider: ProviderSpec<CodexCredential, Usage> = {
  agent: 'codex',
  findCredential,
  noCredentialMessage: 'no Codex login found: run `codex` to log in (or set CODEX_OAUTH_TOKEN)',
  lookedFor: codexAuthFile,
  buildRequest: (base, credential) => ({
    url: `${base}/backend-api/wham/usage`,
    headers: {
      authorization: `Bearer ${credential.token}`,
      accept: 'application/json',
      ...(credential.accountId ? { 'chatgpt-account-id': credential.accountId } : {}),
    },
  }),
  describeStatus: (response) => {
    if (response.status === 401 || response.status === 403) {
      return new LimitError(response.status === 401 ? 'E_UNAUTHORIZED' : 'E_FORBIDDEN', `Codex rejected the token (HTTP ${response.status}): open the Codex CLI again to refresh your login`);
    }
    if (response.status === 429) return new LimitError('E_RATE_LIMITED', `rate-limited (HTTP 429)${rateLimitSuffix(response)}; try again in a minute`);
    return undefined;
  },
  schema: usageSchema,
  toResult: (usage, _credential, ctx) => {
    const slots = [usage.rate_limit?.primary_window, usage.rate_limit?.secondary_window];
    const now = ctx.now();
    const windows = slots.filter((slot): slot is CodexWindow => !!slot && slot.limit_window_seconds > 0).map((slot) => toWindow(slot, now));
    if (windows.length === 0) throw new LimitError('E_NO_WINDOWS', 'the response holds no rate-limit window (rate_limit has neither a primary nor a secondary window)');
    const plan = usage.plan_type ? planName(usage.plan_type) : '';
    return {
      reports: [
        {
          row: 'Codex',
          windows,
          note: `read from /backend-api/wham/usage${usage.plan_type ? ` (ChatGPT plan ${usage.plan_type})` : ''}, the endpoint the Codex CLI polls for its display; undocumented, it may change or be revoked by OpenAI without notice`,
          ...(plan ? { plan } : {}),
        },
      ],
    };
  },
};

/** Codex's limits: the live answer and Codex's own newest snapshot, read at the same time and shown together. */
export const limits: LimitsProvider = (ctx) =>
  forkJoin([runProvider(codexProvider, ctx), from(newestCodexSnapshot(ctx).catch(() => undefined))]).pipe(
    map(([live, snapshot]) => withCodexSnapshot(live, snapshot, codexSessionsRoot(ctx), ctx.now())),
  );
