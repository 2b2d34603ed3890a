import type { FastifyInstance } from 'fastify';

/**
 * CORS on lazyagent's own routes (docs/api.md), so its clients served from another
 * origin keep working: any origin, no credentials (`*` never lets a browser send cookies, and
 * none are used), the `Authorization` and `Content-Type` request headers, and a preflight
 * (OPTIONS) answered 204 without the token, as a browser never sends one on a preflight. The
 * Host check still runs first and every other request still needs the token, so a page of
 * another origin reads nothing it could not read with curl and the token.
 *
 * Only the methods lazyagent serves on each route are allowed: the routes agentwatch adds
 * (`PUT /api/config`, the actions, limits, search, metrics) and the
 * playground and dashboard pages stay same-origin.
 */
const LAZYAGENT_ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/api/auth': ['GET'],
  '/api/sessions': ['GET'],
  '/api/sessions/:id': ['GET'],
  '/api/sessions/:id/name': ['PUT', 'DELETE'],
  '/api/stats': ['GET'],
  '/api/config': ['GET'],
  '/api/events': ['GET'],
};

const byRoute = new Map(
  Object.entries(LAZYAGENT_ROUTES).map(([route, methods]) => [
    route,
    {
      methods,
      headers: {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
        'access-control-allow-headers': 'Authorization, Content-Type',
      },
    },
  ]),
);

/** The CORS headers of an answer to `method` on the route pattern `route`, or undefined when it carries none. */
export const corsHeaders = (route: string | undefined, method: string | undefined): Readonly<Record<string, string>> | undefined => {
  const entry = route === undefined ? undefined : byRoute.get(route);
  if (entry === undefined || method === undefined) return undefined;
  return method === 'OPTIONS' || entry.methods.includes(method) ? entry.headers : undefined;
};

/**
 * The hook that adds the headers (install it after the Host check and before auth, so a 401 is
 * readable by the page that has to ask for the passphrase) and the preflight routes. The headers
 * go on the raw response: the list and the event stream write theirs themselves (hijacked).
 */
export const installCors = (app: FastifyInstance): void => {
  app.addHook('onRequest', (request, reply, done) => {
    const headers = corsHeaders(request.routeOptions.url, request.method);
    if (headers) for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
    done();
  });
  for (const route of Object.keys(LAZYAGENT_ROUTES)) {
    app.options(route, { config: { access: 'public' } }, (_request, reply) => reply.code(204).send());
  }
};
