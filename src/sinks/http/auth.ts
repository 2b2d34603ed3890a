import bearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FailureLimiter } from './auth-throttle.js';
import { tokensEqual } from './token.js';

/** Who may call a route: set per route in `config.access`; routes that say nothing need the token. */
export type RouteAccess = 'public' | 'token' | 'token-or-query';

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

const unauthorized = (reply: FastifyReply, message: string): FastifyReply =>
  reply.code(401).header('www-authenticate', 'Bearer realm="agentwatch"').send({ error: message });

/**
 * Bearer authentication (@fastify/bearer-auth does the header parsing and the constant-time
 * comparison), plus the two things it does not do: `?token=` for EventSource clients, which cannot
 * set headers, on /api/events only; and slowing down addresses that keep presenting wrong tokens.
 */
export const installAuth = async (app: FastifyInstance, options: { readonly token: string; readonly limiter: FailureLimiter }): Promise<void> => {
  // rfc6749: the scheme name is case-insensitive (RFC 7235), so `bearer <token>` from scripts works too.
  await app.register(bearerAuth, { keys: [options.token], addHook: false, verifyErrorLogLevel: 'debug', specCompliance: 'rfc6749' });
  const verifyHeader = app.verifyBearerAuth;
  if (!verifyHeader) throw new Error('@fastify/bearer-auth did not decorate verifyBearerAuth');

  const checkHeader = (request: FastifyRequest, reply: FastifyReply): Promise<Error | undefined> =>
    new Promise((resolve) => verifyHeader(request, reply, (error) => resolve(error)));

  app.addHook('onRequest', async (request, reply) => {
    const access = request.routeOptions.config.access ?? 'token';
    if (access === 'public') return;
    // A 404 outside /api reveals nothing: a browser opening http://127.0.0.1:7421/ gets a plain 404.
    if (request.is404 && !request.url.startsWith('/api')) return;

    const wait = options.limiter.retryAfterMs(request.ip);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      return reply
        .code(429)
        .header('retry-after', String(seconds))
        .send({ error: `too many failed authentications from this address; retry in ${seconds} s` });
    }

    const fromQuery = queryToken(request.query);
    const hasHeader = request.headers.authorization !== undefined;
    if (!hasHeader && fromQuery !== undefined) {
      if (access !== 'token-or-query') return unauthorized(reply, QUERY_ONLY_ON_EVENTS);
      if (tokensEqual(options.token, fromQuery)) {
        options.limiter.recordSuccess(request.ip);
        return;
      }
      options.limiter.recordFailure(request.ip);
      return unauthorized(reply, INVALID);
    }
    if (!hasHeader) return unauthorized(reply, MISSING);

    const error = await checkHeader(request, reply);
    if (!error) {
      options.limiter.recordSuccess(request.ip);
      return;
    }
    options.limiter.recordFailure(request.ip);
    return unauthorized(reply, INVALID);
  });
};
