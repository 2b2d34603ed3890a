import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LimitAgent } from '../../../src/core/agents.js';

export const FIXTURES = new URL('../../../fixtures/limits/', import.meta.url);

/** Reads `fixtures/limits/<name>` as text. */
export const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** What the loopback vendor answers on one agent's path. */
export interface Route {
  readonly status?: number;
  /** File under fixtures/limits/, e.g. `claude/usage.json`. */
  readonly fixture?: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answer this long after the request arrived (a slow vendor). */
  readonly delayMs?: number;
  /**
   * Hold the answer until this many requests (of any agent) have arrived: a client that asked one
   * after the other would wait on the first answer for ever (until its own timeout).
   */
  readonly holdUntilRequests?: number;
}

export interface RecordedRequest {
  readonly agent: LimitAgent | undefined;
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly arrivedAt: number;
}

export const VENDOR_PATHS = {
  claude: '/api/oauth/usage',
  codex: '/backend-api/wham/usage',
  grok: '/v1/billing',
  kimi: '/coding/v1/usages',
  cursor: '/api/usage-summary',
} as const satisfies Record<LimitAgent, string>;

const agentOfPath = (pathname: string): LimitAgent | undefined =>
  (Object.entries(VENDOR_PATHS) as [LimitAgent, string][]).find(([, p]) => p === pathname)?.[0];

export interface VendorServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  route(agent: LimitAgent, route: Route): void;
  close(): Promise<void>;
}

/**
 * A node:http server on 127.0.0.1 that plays all five vendors at their real paths, answering
 * with fixture files. It records every request so tests can check headers and concurrency.
 */
export const startVendorServer = async (routes: Partial<Record<LimitAgent, Route>> = {}): Promise<VendorServer> => {
  const table = new Map<LimitAgent, Route>(Object.entries(routes) as [LimitAgent, Route][]);
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const held: { readonly until: number; readonly answer: () => void }[] = [];
  const releaseHeld = (): void => {
    for (const entry of held.splice(0)) {
      if (requests.length >= entry.until) entry.answer();
      else held.push(entry);
    }
  };
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const agent = agentOfPath(pathname);
    requests.push({ agent, method: req.method ?? '', url: req.url ?? '', headers: req.headers, arrivedAt: performance.now() });
    const route = agent ? table.get(agent) : undefined;
    const answer = (): void => {
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such route');
        return;
      }
      const body = route.body ?? (route.fixture ? fixture(route.fixture) : '');
      res.writeHead(route.status ?? 200, { 'content-type': 'application/json', ...route.headers }).end(body);
    };
    if (route?.holdUntilRequests !== undefined) {
      held.push({ until: route.holdUntilRequests, answer });
      releaseHeld();
    } else if (route?.delayMs) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, route.delayMs);
      timers.add(timer);
    } else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (agent, route) => void table.set(agent, route),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
