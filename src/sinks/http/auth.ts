import bearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FailureLimiter } from './auth-throttle.js';
import { tokensEqual } from './token.js';

/** Who may call a route: set per route in `config.access`; routes that say nothing need the token. */
type RouteAccess = 'public' | 'token' | 'token-or-query';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

const MISSING = 'missing token: send Authorization: Bearer <token>';
const INVALID = 'invalid token';
const QUERY_ONLY_ON_EVENTS = '?token= is accepted on /api/events only: send Authorization: Bearer <token>';

const queryToken = (query: unknown): string | undefined => {
  if (typeof query !== 'object' || query === null || !('token' in query)) return undefined;
  const token = (query as { token: unknown }).token;
  return typeof token === 'string' ? token : undefined;
};

/**
 * Why a request comes from another site, or undefined: `Sec-Fetch-Site` other than same-origin or
 * none (same-site counts: a page on localhost:3000 is the same site as localhost:7421), or an
 * `Origin` whose host is not the Host the request was sent to.
 */
const crossSiteReason = (request: FastifyRequest): string | undefined => {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return undefined;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  return host !== undefined && host !== '' && host === request.headers.host ? undefined : `Origin: ${origin.slice(0, 100)}`;
};

const unauthorized = (reply: FastifyReply, message: string): FastifyReply =>
  reply.code(401).header('www-authenticate', 'Bearer realm="agentwatch"').send({ error: message });

/**
 * Bearer authentication (@fastify/bearer-auth does the header parsing), plus what it does not do:
 * `?token=` for EventSource clients, which cannot set headers, on /api/events only and never from
 * another site; slowing down addresses that keep presenting wrong tokens (never the right one:
 * auth-throttle.ts); and a token still being derived (the server listens before the 600,000
 * PBKDF2 iterations end): a request that needs it waits for it, then is judged as any other.
 */
export const installAuth = async (
  app: FastifyInstance,
  options: { readonly token: string | Promise<string>; readonly limiter: FailureLimiter },
): Promise<void> => {
  let known = typeof options.token === 'string' ? options.token : undefined;
  const derived = Promise.resolve(options.token).then((token) => (known = token));
  // A failed derivation surfaces in the requests that wait for it (500), not as an unhandled rejection.
  derived.catch(() => undefined);

  // rfc6749: the scheme name is case-insensitive (RFC 7235), so `bearer <token>` from scripts works too.
  // `auth` runs only once the hook below has the token (constant-time comparison: token.ts).
  await app.register(bearerAuth, {
    keys: [],
    auth: (presented) => tokensEqual(known ?? '', presented),
    addHook: false,
    verifyErrorLogLevel: 'debug',
    specCompliance: 'rfc6749',
  });
  const verifyHeader = app.verifyBearerAuth;
  if (!verifyHeader) throw new Error('@fastify/bearer-auth did not decorate verifyBearerAuth');

  /** Runs `then` with the token: at once once derived, else when the derivation ends (a failure, or a throw in `then`: `failed`). */
  const withToken = (then: (token: string) => void, failed: (error: Error) => void): void => {
    if (known !== undefined) then(known);
    else derived.then(then).catch(failed);
  };

  const wrongToken = (request: FastifyRequest, reply: FastifyReply): void => {
    const wait = options.limiter.recordFailure(request.ip);
    if (wait === 0) {
      unauthorized(reply, INVALID);
      return;
    }
    const seconds = Math.ceil(wait / 1000);
    void reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({ error: `too many wrong tokens from this address; retry in ${seconds} s (the right token is always accepted)` });
  };

  // A callback hook, not an async one: every token-protected request runs it, and with the token
  // known a right token passes without a promise of ours (answering from a hook = not calling done).
  app.addHook('onRequest', (request, reply, done) => {
    const access = request.routeOptions.config.access ?? 'token';
    // A 404 outside /api reveals nothing: a browser opening http://127.0.0.1:7421/ gets a plain 404.
    if (access === 'public' || (request.is404 && !request.url.startsWith('/api'))) {
      done();
      return;
    }
    const fromQuery = queryToken(request.query);
    const hasHeader = request.headers.authorization !== undefined;
    if (!hasHeader && fromQuery !== undefined) {
      // Any web page can make a browser load `?token=` URLs; such a request is refused before the
      // token is looked at, so it neither probes the token nor spends the address's tries.
      const foreign = crossSiteReason(request);
      if (foreign) void reply.code(403).send({ error: `cross-site request refused (${foreign}): open the dashboard from this server` });
      else if (access !== 'token-or-query') unauthorized(reply, QUERY_ONLY_ON_EVENTS);
      else withToken((token) => (tokensEqual(token, fromQuery) ? done() : wrongToken(request, reply)), done);
      return;
    }
    if (!hasHeader) {
      unauthorized(reply, MISSING);
      return;
    }
    withToken(() => verifyHeader(request, reply, (error) => (error ? wrongToken(request, reply) : done())), done);
  });
};
