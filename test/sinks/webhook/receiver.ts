import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it, with the signature checked the way a real receiver would. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  readonly json: unknown;
  /** undefined: no secret configured for this path; otherwise whether the signature verified. */
  readonly signatureValid: boolean | undefined;
}

/** How the receiver answers one path: a status (and body), or `hang` (never answers until released). */
export type Behaviour = { readonly status: number; readonly body?: string } | 'hang';

/**
 * A webhook receiver on 127.0.0.1 (port 0) standing in for a user's endpoint. Verifies
 * X-Agentwatch-Signature independently of the code under test: HMAC-SHA256 over the raw body
 * with node:crypto, compared with timingSafeEqual.
 */
export const startReceiver = async (secrets: Readonly<Record<string, string>> = {}) => {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour[]>();
  const held: ServerResponse[] = [];
  let abandoned = 0;
  const abandonWaiters: (() => void)[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];

  const verify = (path: string, raw: Buffer, header: string | string[] | undefined): boolean | undefined => {
    const secret = secrets[path];
    if (secret === undefined) return undefined;
    if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
    const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('hex'), 'utf8');
    const given = Buffer.from(header.slice('sha256='.length), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '/';
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = undefined;
      }
      received.push({ path, headers: req.headers, raw, json, signatureValid: verify(path, raw, req.headers['x-agentwatch-signature']) });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      // A path's behaviours are used in order; the last one repeats.
      const queue = behaviours.get(path) ?? [];
      const behaviour = queue.length > 1 ? queue.shift()! : (queue[0] ?? { status: 200, body: 'ok' });
      if (behaviour === 'hang') {
        held.push(res);
        // The client gave up on a held request (timeout, shutdown): count it, once.
        res.on('close', () => {
          if (!res.writableEnded) {
            abandoned += 1;
            for (const resolve of abandonWaiters.splice(0)) resolve();
          }
        });
        return;
      }
      res.writeHead(behaviour.status, { 'content-type': 'text/plain' }).end(behaviour.body ?? '');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string, ...answers: Behaviour[]) => behaviours.set(path, answers),
    /** Resolves once `count` requests in all have arrived (a real event, bounded by the test timeout). */
    waitFor: (count: number) =>
      received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    /** Resolves once the client has closed a held request without waiting for its answer. */
    waitForAbandoned: () => (abandoned > 0 ? Promise.resolve() : new Promise<void>((resolve) => abandonWaiters.push(resolve))),
    /** Answers every held request with 200. */
    release: () => {
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(200).end('late');
    },
    close: async () => {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
