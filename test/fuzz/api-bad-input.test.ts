import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed, mulberry32 } from './prng.js';
import { makeApiHarness, TOKEN, type ApiHarness } from './api-server.js';
import { randomRequest, type FuzzRequest } from './api-requests.js';

/**
 * Property 1 of the API: whatever a client sends (method, path, query, headers, body), the answer
 * is never a 5xx, every refusal is a JSON `{ "error": "<specific message>" }` with no stack trace
 * and no generic wording, and no token-protected route answers without the token. Each case has
 * its own seed; a failure prints it (AGENTWATCH_FUZZ_SEED=<seed> AGENTWATCH_FUZZ_RUNS=1 replays it).
 */

const RUNS = fuzzRuns(1500);
const BASE_SEED = fuzzSeed(0x5eed_a9e1);
const HUNG_MS = 5_000;

let harness: ApiHarness;
beforeAll(async () => {
  harness = await makeApiHarness();
});
afterAll(async () => {
  await harness.close();
});

const rawPathOf = (url: string): string => url.split('?', 1)[0] ?? '';

/** The path as a route sees it, decoded. */
const pathOf = (url: string): string => {
  const raw = rawPathOf(url);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** The routes anyone may call (docs/api.md, docs/dashboard.md): the salt, the playground, the dashboard's files, CORS preflights. */
const isPublic = (request: FuzzRequest): boolean => {
  if (request.method === 'OPTIONS') return /^\/api\/(auth|sessions(\/[^/]*(\/name)?)?|stats|config|events)$/.test(rawPathOf(request.url));
  const path = pathOf(request.url);
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return ['/api/auth', '/api', '/', '/index.html'].includes(path) || path.startsWith('/assets/') || (/^\/[^/]+$/.test(path) && path !== '/metrics');
};

const hasValidToken = (request: FuzzRequest): boolean => {
  const header = request.headers.authorization;
  if (header !== undefined) return header.slice(0, 7).toLowerCase() === 'bearer ' && header.slice(7).trim() === TOKEN;
  return pathOf(request.url) === '/api/events' && new URLSearchParams(request.url.split('?')[1] ?? '').get('token') === TOKEN;
};

/** An authorised event stream never ends: such requests carry a wrong token instead (its refusal is still checked). */
const withoutOpenStream = (request: FuzzRequest): FuzzRequest => {
  if (pathOf(request.url) !== '/api/events' || request.method !== 'GET') return request;
  return { ...request, url: request.url.replaceAll(TOKEN, 'wrong-token'), headers: { ...request.headers, ...(request.headers.authorization === undefined ? {} : { authorization: 'Bearer wrong-token' }) } };
};

const STACK_TRACE = /\n\s+at \S|node_modules|\.ts:\d+:\d+/;

/** What is wrong with one answer, or undefined. */
const problemOf = (request: FuzzRequest, status: number, headers: Record<string, unknown>, body: string): string | undefined => {
  if (status >= 500) return `answered ${status}`;
  const hostRefused = request.headers.host !== undefined && !/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(request.headers.host);
  // The router refuses a malformed URL before any hook runs (the Host check included): a refusal all the same.
  const frameworkRefusal = (status === 400 || status === 414) && /^(malformed URL|path parameter too long)/.test(body.slice(10));
  if (hostRefused) return status === 403 || frameworkRefusal ? undefined : `a foreign Host got ${status}, not 403`;
  if (!hasValidToken(request) && status < 400 && !isPublic(request)) return `answered ${status} without a valid token`;
  if (hasValidToken(request) && status === 401) return 'a valid token was refused';
  if (status < 400 || request.method === 'HEAD') return undefined;
  if (!String(headers['content-type'] ?? '').startsWith('application/json')) return `error answer of type ${String(headers['content-type'])}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'error answer is not JSON';
  }
  const error = (parsed as { error?: unknown } | null)?.error;
  if (typeof error !== 'string' || error.trim() === '') return 'error answer without an { "error": "..." } message';
  if (/^(internal error|internal server error|bad request|error)$/i.test(error.trim())) return `generic error message ${JSON.stringify(error)}`;
  if (STACK_TRACE.test(error)) return 'error message holds a stack trace';
  if (error.length > 2_000) return `error message of ${error.length} characters`;
  return undefined;
};

const describeRequest = (request: FuzzRequest): string => {
  const payload = request.payload === undefined ? '' : ` body=${JSON.stringify(String(request.payload).slice(0, 300))}${String(request.payload).length > 300 ? '…' : ''}`;
  return `${request.method} ${request.url.slice(0, 300)} headers=${JSON.stringify(request.headers).slice(0, 400)}${payload}`;
};

describe('fuzz: the API answers bad input with a specific 4xx, never a 5xx, and keeps the token', () => {
  it(`${RUNS} random requests (base seed ${BASE_SEED})`, { timeout: 60_000 + RUNS * 5 }, async () => {
    const failures: string[] = [];
    const statuses = { '2xx': 0, '4xx': 0 };
    for (let i = 0; i < RUNS; i += 1) {
      const seed = (BASE_SEED + i) >>> 0;
      const request = withoutOpenStream(randomRequest(mulberry32(seed)));
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        harness.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload === undefined ? {} : { payload: request.payload }) }),
        new Promise<'hung'>((resolve) => {
          timer = setTimeout(() => resolve('hung'), HUNG_MS);
        }),
      ]).catch((error: unknown) => ({ thrown: error as Error }));
      clearTimeout(timer);
      let problem: string | undefined;
      if (answer === 'hung') problem = `no answer within ${HUNG_MS} ms`;
      else if ('thrown' in answer) problem = `inject threw ${answer.thrown.message}`;
      else {
        problem = problemOf(request, answer.statusCode, answer.headers, answer.body);
        if (answer.statusCode < 300) statuses['2xx'] += 1;
        else if (answer.statusCode < 500) statuses['4xx'] += 1;
      }
      if (problem) {
        const shown = answer !== 'hung' && !('thrown' in answer) ? ` -> ${answer.statusCode} ${answer.body.slice(0, 300)}` : '';
        failures.push(`seed ${seed}: ${problem}: ${describeRequest(request)}${shown}`);
      }
    }
    expect(failures, `${failures.length} of ${RUNS} cases failed; replay one with AGENTWATCH_FUZZ_SEED=<seed> AGENTWATCH_FUZZ_RUNS=1\n${failures.slice(0, 15).join('\n')}`).toEqual([]);
    // Requests get through as well as refused (a generator whose every request is refused at the door proves little).
    if (RUNS >= 200) for (const kind of ['2xx', '4xx'] as const) expect(statuses[kind], JSON.stringify(statuses)).toBeGreaterThan(RUNS / 10);
  });
});
