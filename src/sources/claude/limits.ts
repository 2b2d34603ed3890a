import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { homeDir } from '../../config/paths.js';
import type { LimitsCtx } from '../../limits/context.js';
import { envValue, parseCredentialText, readCredentialFile } from '../../limits/credential-file.js';
import { rateLimitSuffix, runProvider, type LimitsProvider, type ProviderSpec } from '../../limits/provider.js';
import { LimitError, type LimitWindow } from '../../limits/types.js';
import { FIVE_HOURS, ONE_WEEK } from '../../limits/windows.js';
import { isoTime, planName } from '../../limits/provider-fields.js';

/** The login JSON Claude Code keeps in `.credentials.json` and, on macOS, in the keychain. */
const credentialsSchema = z.object({
  claudeAiOauth: z
    .object({
      accessToken: z.string(),
      subscriptionType: z.string().nullish(),
    })
    .optional(),
});

/** A usage window; `resets_at` must be present (null means the window has not started). */
const windowSchema = z.object({
  utilization: z.number().min(0),
  resets_at: z.union([isoTime, z.null()]),
});

/** Both keys must exist (their value may be null) so a rename is drift, not "no data". */
const usageSchema = z.object({
  five_hour: windowSchema.nullable(),
  seven_day: windowSchema.nullable(),
});
type Usage = z.infer<typeof usageSchema>;

interface ClaudeCredential {
  readonly token: string;
  readonly plan?: string;
  readonly secrets: readonly string[];
}

const KEYCHAIN_SERVICE = 'Claude Code-credentials';

const fromLogin = (login: z.infer<typeof credentialsSchema>): ClaudeCredential | undefined => {
  const token = login.claudeAiOauth?.accessToken.trim();
  if (!token) return undefined;
  const plan = login.claudeAiOauth?.subscriptionType ? planName(login.claudeAiOauth.subscriptionType) : undefined;
  return { token, secrets: [token], ...(plan ? { plan } : {}) };
};

/** Where the login is looked for, first found wins: env, macOS keychain (only on macOS), then the credentials file. */
const claudeCredentialsFile = (ctx: Pick<LimitsCtx, 'env'>): string =>
  path.join(envValue(ctx.env, 'CLAUDE_CONFIG_DIR') ?? path.join(homeDir(ctx.env), '.claude'), '.credentials.json');

const findCredential = async (ctx: LimitsCtx): Promise<ClaudeCredential | undefined> => {
  const fromEnv = envValue(ctx.env, 'CLAUDE_CODE_OAUTH_TOKEN');
  if (fromEnv) return { token: fromEnv, secrets: [fromEnv] };
  if (ctx.platform === 'darwin') {
    const account = ctx.env.USER || os.userInfo().username;
    const secret = await ctx.readKeychain(KEYCHAIN_SERVICE, account, ctx.env);
    // NOTE: the keychain item can hold only MCP login state; then the file is the next source.
    const found = secret ? fromLogin(parseCredentialText(secret, `the keychain item "${KEYCHAIN_SERVICE}"`, credentialsSchema)) : undefined;
    if (found) return found;
  }
  const login = await readCredentialFile(claudeCredentialsFile(ctx), credentialsSchema);
  return login ? fromLogin(login) : undefined;
};

const window = (label: string, seconds: number, value: NonNullable<Usage['five_hour']>): LimitWindow => ({
  label,
  windowSeconds: seconds,
  usedPercent: value.utilization,
  resetsAt: value.resets_at === null ? null : Date.parse(value.resets_at),
});

export const claudeProvider: ProviderSpec<ClaudeCredential, Usage> = {
  agent: 'claude',
  findCredential,
  noCredentialMessage: 'no Claude login found: run `claude` to log in (or set CLAUDE_CODE_OAUTH_TOKEN)',
  lookedFor: (ctx) => `${ctx.platform === 'darwin' ? `the keychain item "${KEYCHAIN_SERVICE}" and ` : ''}${claudeCredentialsFile(ctx)}`,
  buildRequest: (base, credential) => ({
    url: `${base}/api/oauth/usage`,
    headers: { authorization: `Bearer ${credential.token}`, 'anthropic-beta': 'oauth-2025-04-20', accept: 'application/json' },
  }),
  describeStatus: (response) => {
    if (response.status === 401) return new LimitError('E_UNAUTHORIZED', 'Claude rejected the token (HTTP 401, expired or revoked): run `claude` to log in again');
    if (response.status === 403) {
      return new LimitError('E_FORBIDDEN', 'this token may not read usage (HTTP 403: it lacks the user:profile scope, as tokens from `claude setup-token` do): log in with `claude`');
    }
    if (response.status === 429) {
      return new LimitError('E_RATE_LIMITED', `the usage endpoint is rate-limiting this token (HTTP 429)${rateLimitSuffix(response)}; wait before trying again and do not poll it`);
    }
    return undefined;
  },
  schema: usageSchema,
  toResult: (usage, credential) => {
    const windows = [
      ...(usage.five_hour ? [window('5-hour', FIVE_HOURS, usage.five_hour)] : []),
      ...(usage.seven_day ? [window('7-day', ONE_WEEK, usage.seven_day)] : []),
    ];
    if (windows.length === 0) throw new LimitError('E_NO_WINDOWS', 'the response holds neither a 5-hour nor a 7-day window (five_hour and seven_day are null)');
    return {
      reports: [
        {
          row: 'Claude',
          windows,
          note: 'read from /api/oauth/usage, an undocumented Anthropic endpoint that may change or be revoked without notice',
          ...(credential.plan ? { plan: credential.plan } : {}),
        },
      ],
    };
  },
};

/** Claude's limits, as `agentwatch limits` reads them. */
export const limits: LimitsProvider = (ctx) => runProvider(claudeProvider, ctx);
