import { catchError, defaultIfEmpty, defer, from, of, type Observable } from 'rxjs';
import type { z } from 'zod';
import type { LimitAgent } from '../core/agents.js';
import { baseUrlOf, type LimitsCtx } from './context.js';
import { snippet, type HttpResponse } from './http.js';
import { describeIssues } from './issues.js';
import { LimitError, type LimitReport, type Outcome, type SkipReason } from './types.js';

/** A credential found for a provider; `secrets` lists every value that must never be printed. */
export interface FoundCredential {
  readonly secrets: readonly string[];
}

/** What a provider's mapping step returns: reports, or a reason there is nothing to show. */
type ProviderResult = { readonly reports: readonly LimitReport[] } | { readonly skip: SkipReason; readonly message: string };

/**
 * The parts that differ between the five providers. `runProvider` does the rest the same way
 * for each: credential -> one GET -> status -> JSON -> zod -> windows, every failure a value.
 */
export interface ProviderSpec<C extends FoundCredential, P> {
  readonly agent: LimitAgent;
  /** `undefined` = not logged in (skip under `all`); throws E_BAD_CREDENTIAL on a broken file. */
  readonly findCredential: (ctx: LimitsCtx) => Promise<C | undefined>;
  /** Shown when no credential exists, e.g. "not logged in: run `claude` to log in". */
  readonly noCredentialMessage: string;
  /** Every place the credential was looked for besides the environment variable: files, keychain items. */
  readonly lookedFor: (ctx: LimitsCtx) => string;
  readonly buildRequest: (base: string, credential: C, ctx: LimitsCtx) => { url: string; headers: Record<string, string> };
  /** Provider-specific wording for a non-200 status; `undefined` falls back to `statusError`. */
  readonly describeStatus?: (response: HttpResponse, credential: C) => LimitError | undefined;
  readonly schema: z.ZodType<P>;
  readonly toResult: (payload: P, credential: C, ctx: LimitsCtx) => ProviderResult;
}

/** ` (Retry-After: 600)` when a 429 says how long to wait, so the user does not retry sooner. */
export const rateLimitSuffix = (response: HttpResponse): string => {
  const value = response.headers['retry-after'];
  const text = Array.isArray(value) ? value[0] : value;
  return text ? ` (Retry-After: ${text})` : '';
};

/** The generic wording of each non-200 status, with a body snippet where it helps. */
const statusError = (response: HttpResponse, secrets: readonly string[]): LimitError => {
  const { status } = response;
  const body = snippet(response.body, secrets);
  if (status === 401) return new LimitError('E_UNAUTHORIZED', `the token was rejected (HTTP 401): ${body}`);
  if (status === 403) return new LimitError('E_FORBIDDEN', `access denied (HTTP 403): ${body}`);
  if (status === 404) return new LimitError('E_NOT_FOUND', `the usage endpoint was not found (HTTP 404); it may have moved: ${body}`);
  if (status === 429) return new LimitError('E_RATE_LIMITED', `rate-limited (HTTP 429)${rateLimitSuffix(response)}; try again later`);
  if (status >= 500) return new LimitError('E_SERVER', `the server failed (HTTP ${status}): ${body}`);
  return new LimitError('E_HTTP_STATUS', `unexpected answer (HTTP ${status}): ${body}`);
};

/** Body -> validated payload, or E_SCHEMA_DRIFT naming the JSON path and the expected type. */
const parsePayload = <P>(body: string, schema: z.ZodType<P>, secrets: readonly string[]): P => {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new LimitError('E_SCHEMA_DRIFT', `the answer is not JSON, the endpoint may have changed: ${snippet(body, secrets)}`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new LimitError('E_SCHEMA_DRIFT', `the response shape changed (${describeIssues(parsed.error)}); not showing stale figures. Body: ${snippet(body, secrets)}`);
  }
  return parsed.data;
};

const attempt = async <C extends FoundCredential, P>(spec: ProviderSpec<C, P>, ctx: LimitsCtx, seenSecrets: string[]): Promise<Outcome> => {
  const { agent } = spec;
  const credential = await spec.findCredential(ctx);
  if (!credential) {
    const sessions = await ctx.sessionsAt?.(agent).catch(() => undefined);
    if (!sessions) return { kind: 'skipped', agent, reason: 'no-credential', message: spec.noCredentialMessage };
    return { kind: 'skipped', agent, reason: 'no-credential', sessions, message: `${spec.noCredentialMessage}; it has sessions here (${sessions}), and its login was looked for in ${spec.lookedFor(ctx)}` };
  }
  seenSecrets.push(...credential.secrets);
  const { base, variable, value } = baseUrlOf(agent, ctx.env);
  if (!base) throw new LimitError('E_BAD_URL', `${variable} is not an http(s) URL: ${JSON.stringify(value)}`);
  const { url, headers } = spec.buildRequest(base, credential, ctx);
  const response = await ctx.get({ url, headers: { ...headers, 'user-agent': ctx.userAgent }, timeoutMs: ctx.timeoutMs });
  if (response.status !== 200) throw spec.describeStatus?.(response, credential) ?? statusError(response, credential.secrets);
  const result = spec.toResult(parsePayload(response.body, spec.schema, credential.secrets), credential, ctx);
  if ('skip' in result) return { kind: 'skipped', agent, reason: result.skip, message: result.message };
  return { kind: 'ok', agent, reports: result.reports };
};

/** How an agent's limits are read: one outcome, then complete (see `runProvider`). */
export type LimitsProvider = (ctx: LimitsCtx) => Observable<Outcome>;

/** Removes every secret from a message, whatever produced it. */
const scrub = (message: string, secrets: readonly string[]): string =>
  secrets.reduce((text, secret) => (secret.length >= 4 ? text.split(secret).join('<redacted>') : text), message);

/**
 * Cold observable of one provider's outcome: emits exactly once and completes, never errors
 * (catchError inside, defaultIfEmpty as a guard), as forkJoin requires. Every message is
 * scrubbed of the credential's secrets, whatever produced it.
 */
export const runProvider = <C extends FoundCredential, P>(spec: ProviderSpec<C, P>, ctx: LimitsCtx): Observable<Outcome> =>
  defer(() => {
    const secrets: string[] = [];
    return from(attempt(spec, ctx, secrets)).pipe(
      catchError((error: unknown) => {
        const code = error instanceof LimitError ? error.code : 'E_INTERNAL';
        const message = error instanceof Error ? error.message : String(error);
        return of<Outcome>({ kind: 'failed', agent: spec.agent, code, message: scrub(message, secrets) });
      }),
    );
  }).pipe(defaultIfEmpty<Outcome, Outcome>({ kind: 'failed', agent: spec.agent, code: 'E_INTERNAL', message: 'the provider produced no result' }));
