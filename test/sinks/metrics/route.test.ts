import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/sinks/http/server.js';
import { defaultConfig, makeStore, makeTempEnv, viewsOf } from '../http/helpers.js';
import { idleMetrics } from './exposition.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const TOKEN = 'metrics-test-token-0123456789abcdefghijklmnopq';

const server = async () => {
  const temp = await makeTempEnv();
  cleanups.push(temp.cleanup);
  const { store } = await makeStore(temp.env, viewsOf([]));
  const metrics = idleMetrics();
  const app = await buildServer({ store, token: TOKEN, salt: 's', config: () => defaultConfig(), allowedHosts: ['localhost', '127.0.0.1'], metrics });
  cleanups.push(async () => {
    await app.close();
    metrics.stop();
    store.close();
  });
  return app;
};

describe('GET /metrics', () => {
  it('needs the bearer token like /api/*', async () => {
    const app = await server();
    const missing = await app.inject({ method: 'GET', url: '/metrics', headers: { host: '127.0.0.1' } });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toHaveProperty('error');
    const wrong = await app.inject({ method: 'GET', url: '/metrics', headers: { host: '127.0.0.1', authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    const query = await app.inject({ method: 'GET', url: `/metrics?token=${TOKEN}`, headers: { host: '127.0.0.1' } });
    expect(query.statusCode).toBe(401);
  });

  it('answers the text exposition with process metrics and the agentwatch families', async () => {
    const app = await server();
    const reply = await app.inject({ method: 'GET', url: '/metrics', headers: { host: '127.0.0.1', authorization: `Bearer ${TOKEN}` } });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const family of [
      'agentwatch_sessions gauge',
      'agentwatch_sessions_waiting_too_long gauge',
      'agentwatch_activity_seconds_total counter',
      'agentwatch_transitions_total counter',
      'agentwatch_tokens_total counter',
      'agentwatch_cost_usd_total counter',
      'agentwatch_webhook_deliveries_total counter',
      'agentwatch_diagnostics_total counter',
      'agentwatch_ready gauge',
      'process_cpu_seconds_total counter',
      'nodejs_heap_size_used_bytes gauge',
    ]) {
      expect(reply.body).toContain(`# TYPE ${family}`);
    }
  });

  it('refuses a foreign Host before anything else', async () => {
    const app = await server();
    const reply = await app.inject({ method: 'GET', url: '/metrics', headers: { host: 'evil.example', authorization: `Bearer ${TOKEN}` } });
    expect(reply.statusCode).toBe(403);
  });
});
