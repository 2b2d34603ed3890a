import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics/index.js';

/**
 * `GET /metrics` (docs/fleet.md): the Prometheus text exposition, bearer-protected like
 * `/api/*` (no `access` override). Prometheus sends the token with `authorization: { credentials }`.
 */
export const registerMetricsRoute = (app: FastifyInstance, metrics: Metrics): void => {
  app.get('/metrics', async (_request, reply) => reply.header('content-type', metrics.contentType).send(await metrics.render()));
};
