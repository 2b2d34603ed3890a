import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenAddress } from './address.js';

/** Listens `server` on host:port; resolves to the port bound, rejects with the listen error (the server can listen again). */
export const listenOn = (server: Server, host: string, port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port });
  });

/**
 * Listen on the first free port of `ports` (one entry when the user chose `--host`, where a busy
 * port is an error rather than a surprise). Resolves to the address actually bound.
 */
export const listenOnFirstFree = async (server: Server, host: string, ports: readonly number[]): Promise<ListenAddress> => {
  let lastError: unknown;
  for (const port of ports) {
    try {
      return { host, port: await listenOn(server, host, port) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      lastError = error;
    }
  }
  const range = ports.length === 1 ? `port ${ports[0]}` : `ports ${ports[0]}-${ports[ports.length - 1]}`;
  throw Object.assign(new Error(`cannot listen on ${host}: ${range} already in use`), { cause: lastError });
};
