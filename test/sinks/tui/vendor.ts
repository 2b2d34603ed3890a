import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

const FIXTURES = new URL('../../../fixtures/limits/', import.meta.url);
export const fixture = (file: string): string => readFileSync(new URL(file, FIXTURES), 'utf8');

export interface Vendor {
  /** `http://127.0.0.1:<port>`: the base URL the AGENTWATCH_*_API_URL variables point at. */
  readonly url: string;
  readonly requests: { readonly path: string; readonly headers: IncomingHttpHeaders }[];
  readonly close: () => Promise<void>;
}

/**
 * A local stand-in for the Claude usage endpoint (a real HTTP server on loopback), answering
 * with the recorded fixture. Every request is recorded so tests can count reads.
 */
export const startClaudeVendor = async (body = fixture('claude/usage.json')): Promise<Vendor> => {
  const requests: Vendor['requests'][number][] = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === '/api/oauth/usage') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    res.writeHead(404).end('{"error":"not found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
