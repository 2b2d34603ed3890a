import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyServerFactory } from 'fastify';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Config } from '../../config/effective.js';
import { installAuth } from './auth.js';
import { installCors } from './cors.js';
import { createFailureLimiter, DEFAULT_FAILURE_LIMIT } from './auth-throttle.js';
import { HOST_REFUSED, isAllowedHost } from './host-check.js';
import { NO_STORE, NOSNIFF } from './private-headers.js';
import type { Metrics } from '../metrics/index.js';
import { registerMetricsRoute } from './metrics-route.js';
import type { LiveIndex } from '../../search/live.js';
import { registerSearchRoute } from './search-route.js';
import { clip, frameworkMessage, installJsonParser, MAX_PARAM_LENGTH } from './json-body.js';
import { registerPlayground } from './playground.js';
import { registerRoutes } from './routes.js';
import { registerDashboard, type DashboardDeps } from './routes/dashboard.js';
import { registerEvents } from './sse.js';
import { DEFAULT_SSE_TIMING, type SseTiming } from './sse-frames.js';
import type { DeliveryRecord } from '../webhook/delivery-store.js';
import type { SessionStore } from './store.js';

/** Request bodies are a rename at most: a few KB is plenty, more is refused with 413. */
const BODY_LIMIT_BYTES = 4 * 1024;

export interface ServerDeps {
  readonly store: SessionStore;
  /**
   * The bearer token (token.ts), or its derivation still running: the server answers at once,
   * and a request needing the token waits for it (a wrong one is 401 once it is known).
   */
  readonly token: string | Promise<string>;
  /** Public salt served by /api/auth. */
  readonly salt: string;
  readonly config: () => Config;
  /** Host header names answered to, or 'any' when bound to a non-loopback address on purpose (host-check.ts). */
  readonly allowedHosts: readonly string[] | 'any';
  readonly scheduler?: SchedulerLike;
  /** Clock of the failed-authentication limiter. */
  readonly now?: () => number;
  readonly sse?: Partial<SseTiming> & { readonly maxBacklogBytes?: number };
  readonly authLimit?: { readonly maxFailures: number; readonly windowMs: number };
  /** `GET /api/webhooks/deliveries`: recent deliveries of the durable webhook queue. */
  readonly deliveries?: (query: { webhook?: string | undefined; limit: number }) => readonly DeliveryRecord[];
  /** Serves `GET /metrics` when given. */
  readonly metrics?: Metrics;
  /** Serves `GET /api/search` when given. */
  readonly search?: LiveIndex;
  /** The web dashboard's routes (routes/dashboard.ts): static files at `/`, limits, settings, actions. */
  readonly dashboard?: DashboardDeps;
  /**
   * More routes on the same server (the web dashboard at `/`), registered after the API's, under
   * the same host check and auth (`config: { access: 'public' }` for static assets).
   */
  readonly extend?: (app: FastifyInstance) => void | Promise<void>;
  /** The socket the app serves on, listening already (front-door.ts); default: Fastify's own, for `listen`/`inject`. */
  readonly serverFactory?: FastifyServerFactory;
}

/**
 * The API server, built without listening so tests drive it with `inject`. Every error leaves as
 * `{ "error": "..." }`. CORS headers only on lazyagent's routes, as lazyagent sends them (cors.ts);
 * the playground, the dashboard and the routes added beyond lazyagent are same-origin.
 */
export const buildServer = async (deps: ServerDeps): Promise<FastifyInstance> => {
  const scheduler = deps.scheduler ?? asyncScheduler;
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: 'idle',
    ...(deps.serverFactory ? { serverFactory: deps.serverFactory } : {}),
    // Ids are checked by the routes (at most 512 characters, 400 beyond); the router's own limit
    // only bounds its work, and what it refuses still leaves in our `{ error }` shape.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as FastifyReply).code(status).send({ error: frameworkMessage(error) });
    },
  });
  installJsonParser(app);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    // Fastify's own words ("Unsupported Media Type") do not say what to send instead.
    if (status === 415) return reply.code(415).send({ error: `the body must be JSON (Content-Type: application/json), not ${clip(request.headers['content-type'] ?? 'a body without a Content-Type')}` });
    return reply.code(status).send({ error: status >= 500 ? 'internal error' : error.message });
  });
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `no route ${clip(request.method, 20)} ${clip(request.url.split('?')[0] ?? '')}` }));

  // First hook: a request for a foreign Host name is a DNS-rebinding attempt; refuse before auth.
  // Callback hooks, not async ones: they run on every request, and a promise each costs more than the check.
  // A client sends the same Host on every request: the last verdict is kept for it.
  let lastHost: { readonly header: string | undefined; readonly allowed: boolean } | undefined;
  app.addHook('onRequest', (request, reply, done) => {
    const header = request.headers.host;
    if (lastHost === undefined || lastHost.header !== header) lastHost = { header, allowed: isAllowedHost(header, deps.allowedHosts) };
    if (lastHost.allowed) {
      done();
      return;
    }
    void reply.code(403).send({ error: HOST_REFUSED });
  });

  // Session data is live and private: never cached, never sniffed into something else.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE);
    reply.header('x-content-type-options', NOSNIFF);
    done(null, payload);
  });

  // After the Host check, before auth: a 401 to a page of another origin is readable by it.
  installCors(app);

  const limiter = createFailureLimiter({ ...DEFAULT_FAILURE_LIMIT, ...deps.authLimit, now: deps.now ?? (() => scheduler.now()) });
  await installAuth(app, { token: deps.token, limiter });

  registerPlayground(app);
  registerRoutes(app, { store: deps.store, salt: deps.salt, config: deps.config, deliveries: deps.deliveries });
  const { maxBacklogBytes, ...timing } = deps.sse ?? {};
  registerEvents(app, { store: deps.store, timing: { ...DEFAULT_SSE_TIMING, ...timing }, scheduler, ...(maxBacklogBytes ? { maxBacklogBytes } : {}) });
  if (deps.metrics) registerMetricsRoute(app, deps.metrics);
  if (deps.search) registerSearchRoute(app, deps.search);
  if (deps.dashboard) registerDashboard(app, deps.dashboard, { store: deps.store, config: deps.config, loopback: deps.allowedHosts !== 'any' });
  await deps.extend?.(app);
  return app;
};
