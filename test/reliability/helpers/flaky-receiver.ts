import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a path answers now: a status, never (hang), or by dropping the connection (reset). */
export type Mode = 200 | 204 | 400 | 410 | 500 | 503 | 'hang' | 'reset';

export interface Hit {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly answered: Mode;
}

/**
 * A webhook receiver on 127.0.0.1 whose paths can be switched between up, 500, hanging and
 * resetting, to play a receiver that goes down and comes back. Verifies Standard Webhooks
 * signatures on its own (node:crypto), independently of the code under test.
 */
export const startFlakyReceiver = async () => {
  const hits: Hit[] = [];
  const modes = new Map<string, Mode>();
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const mode = modes.get(path) ?? 200;
      hits.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: mode });
      if (mode === 'hang') {
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      }
      if (mode === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(mode, { 'content-type': 'text/plain' }).end(mode >= 400 ? 'not now' : 'ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits,
    set: (path: string, mode: Mode) => modes.set(path, mode),
    mode: (path: string): Mode => modes.get(path) ?? 200,
    /** Answers every held request now (200): a hanging receiver that recovers. */
    release: () => {
      for (const res of held) if (!res.destroyed) res.writeHead(200).end('late');
      held.clear();
    },
    /** Delivery ids a path answered with 2xx. */
    accepted: (path: string) =>
      hits.filter((hit) => hit.path === path && typeof hit.answered === 'number' && hit.answered < 300).map((hit) => String(hit.headers['x-agentwatch-delivery'])),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
};

export type FlakyReceiver = Awaited<ReturnType<typeof startFlakyReceiver>>;

/** Standard Webhooks verification as a receiver's library does it. */
export const verifyStandard = (headers: IncomingHttpHeaders, body: string, secret: string): boolean => {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64'));
  return signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',');
    const given = Buffer.from(value ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
};
