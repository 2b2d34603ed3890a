import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { ListenAddress } from './address.js';

/**
 * Listen on the first free port of `ports` (one entry when the user chose `--host`, where a busy
 * port is an error rather than a surprise). Resolves to the address actually bound.
 */
export const listenOnFirstFree = async (app: FastifyInstance, host: string, ports: readonly number[]): Promise<ListenAddress> => {
  let lastError: unknown;
  for (const port of ports) {
    try {
      await app.listen({ host, port });
      const bound = app.server.address() as AddressInfo;
      return { host, port: bound.port };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      lastError = error;
    }
  }
  const range = ports.length === 1 ? `port ${ports[0]}` : `ports ${ports[0]}-${ports[ports.length - 1]}`;
  throw Object.assign(new Error(`cannot listen on ${host}: ${range} already in use`), { cause: lastError });
};
