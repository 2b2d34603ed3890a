import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ListenAddress } from './address.js';
import { corsHeaders } from './cors.js';
import { HOST_REFUSED, isAllowedHost } from './host-check.js';
import { listenOn, listenOnFirstFree } from './listen.js';
import { JSON_TYPE, NO_STORE, NOSNIFF } from './private-headers.js';

/**
 * The API's socket, listening before the app behind it has loaded, so the API answers at once
 * while Fastify, the routes and the pipeline load (docs/api.md). Until
 * the app is there it answers what needs nothing but the config (`GET /api/auth`, and a foreign
 * Host refused as the app refuses it) and holds every other request; `open` hands the held ones,
 * then every later one, to the app. It loads nothing but Node's own modules.
 */

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface FrontDoor {
  readonly address: ListenAddress;
  /** The server the app is given (Fastify's `serverFactory`): the app never listens itself. */
  readonly server: Server;
  /** From now on every request goes to `handler`: the held ones first, in the order they came. */
  readonly open: (handler: RequestHandler) => void;
  /** How many requests wait for the app. */
  readonly held: () => number;
  /** Stops listening (idle connections closed, held requests answered 503); later calls return the same promise. */
  readonly close: () => Promise<void>;
}

export interface FrontDoorOptions {
  readonly host: string;
  /** Tried in order (one port when the user chose it). */
  readonly ports: readonly number[];
  readonly allowedHosts: readonly string[] | 'any';
  /** `GET /api/auth`'s body (token.ts `authInfo`): public, known as soon as the config is. */
  readonly auth: object;
  /** Default MAX_HELD. */
  readonly maxHeld?: number;
}

/** Requests held at most while the app loads; more are told to retry (a flood must not grow memory). */
export const MAX_HELD = 1024;

export interface EarlyAnswer {
  readonly status: number;
  readonly body: object;
}

/** Pure: what the front door answers by itself before the app is there; undefined = hold for the app. */
export const earlyAnswer = (
  request: { readonly method?: string | undefined; readonly url?: string | undefined; readonly host?: string | undefined },
  allowedHosts: readonly string[] | 'any',
  auth: object,
): EarlyAnswer | undefined => {
  // The app's first hook: a foreign Host name is refused before anything else (host-check.ts).
  if (!isAllowedHost(request.host, allowedHosts)) return { status: 403, body: { error: HOST_REFUSED } };
  const path = (request.url ?? '').split('?', 1)[0];
  if (request.method === 'GET' && path === '/api/auth') return { status: 200, body: auth };
  return undefined;
};

/** Sends a JSON answer with the headers the app's answers carry (private-headers.ts). */
const sendJson = (response: ServerResponse, answer: EarlyAnswer, extra: Readonly<Record<string, string>> = {}): void => {
  const bytes = Buffer.from(JSON.stringify(answer.body));
  response.writeHead(answer.status, {
    'content-type': JSON_TYPE,
    'content-length': String(bytes.length),
    'cache-control': NO_STORE,
    'x-content-type-options': NOSNIFF,
    ...extra,
  });
  response.end(bytes);
};

/**
 * `localhost` names both 127.0.0.1 and ::1: also listen on the other loopback addresses it
 * resolves to, on the same port (as Fastify's own listen does). One that cannot be bound is skipped.
 */
const alsoOnLocalhost = async (primary: Server, host: string, port: number, listener: RequestHandler): Promise<Server[]> => {
  if (host !== 'localhost') return [];
  const bound = (primary.address() as { address?: string } | null)?.address;
  const addresses = await lookup(host, { all: true }).catch(() => []);
  const extra: Server[] = [];
  for (const { address } of addresses) {
    if (address === bound) continue;
    const server = createServer(listener);
    try {
      await listenOn(server, address, port);
      extra.push(server);
    } catch {
      server.close();
    }
  }
  return extra;
};

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });

/** Listens on the first free port of `ports` and answers as above until `open`. */
export const openFrontDoor = async (options: FrontDoorOptions): Promise<FrontDoor> => {
  let handler: RequestHandler | undefined;
  const maxHeld = options.maxHeld ?? MAX_HELD;
  const held: [IncomingMessage, ServerResponse][] = [];
  const listener: RequestHandler = (request, response) => {
    if (handler) {
      handler(request, response);
      return;
    }
    const early = earlyAnswer({ method: request.method, url: request.url, host: request.headers.host }, options.allowedHosts, options.auth);
    // The salt, as the app answers it: with lazyagent's CORS headers (cors.ts); a refusal without.
    if (early) sendJson(response, early, early.status === 200 ? corsHeaders('/api/auth', 'GET') : undefined);
    else if (held.length >= maxHeld) sendJson(response, { status: 503, body: { error: 'agentwatch is starting; retry in a moment' } }, { 'retry-after': '1' });
    else held.push([request, response]);
  };
  const server = createServer(listener);
  const address = await listenOnFirstFree(server, options.host, options.ports);
  const servers = [server, ...(await alsoOnLocalhost(server, options.host, address.port, listener))];
  let closing: Promise<void> | undefined;
  return {
    address,
    server,
    held: () => held.length,
    open: (next) => {
      handler = next;
      for (const [request, response] of held.splice(0)) {
        // A client that gave up while waiting is not worth the app's work.
        if (!request.socket.destroyed) next(request, response);
      }
    },
    close: () => {
      closing ??= (async () => {
        for (const [, response] of held.splice(0)) sendJson(response, { status: 503, body: { error: 'agentwatch is stopping' } }, { connection: 'close' });
        await Promise.all(servers.map(closeServer));
      })();
      return closing;
    },
  };
};
