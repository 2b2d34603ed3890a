import type { CliIo } from '../../core/io.js';
import { RuntimeError } from '../../core/io.js';
import { canPrompt } from '../../util/prompt.js';
import type { Loaded } from '../../config/load.js';
import { passphraseProblem } from '../../config/load.js';
import { DEFAULT_HOST, FALLBACK_PORTS, formatAddress, type ListenAddress } from '../../sinks/http/address.js';
import { openFrontDoor, type FrontDoor } from '../../sinks/http/front-door.js';
import { allowedHostsFor } from '../../sinks/http/host-check.js';
import { askNewPassphrase, saveNewPassphrase } from './passphrase-flow.js';
import { authInfo, deriveToken } from '../../sinks/http/token.js';

/**
 * What `--api` does before anything heavy loads (api.ts brings Fastify, the routes and the
 * metrics later): refuse to serve without a passphrase, start the token's derivation, and listen.
 * From here on `/api/auth` answers; other requests wait for the app (front-door.ts).
 */

/** The token's derivation, the public salt, and the socket already listening. */
export interface PreparedApi {
  /** Resolves when the 600,000 PBKDF2 iterations end (on the thread pool: nothing waits for it here). */
  readonly token: Promise<string>;
  readonly salt: string;
  readonly door: FrontDoor;
  /** `http://host:port`, for webhook payloads and messages. */
  readonly baseUrl: string;
}

/**
 * The effective passphrase's token, started at once and awaited where a request needs it; on a
 * terminal with none configured, asks for one and saves it first.
 */
const prepareApiToken = async (io: CliIo, loaded: Loaded): Promise<{ token: Promise<string>; salt: string }> => {
  const passphrase = loaded.config.api_passphrase;
  const salt = loaded.config.api_salt;
  if (passphrase.trim() === '') {
    if (!canPrompt(io)) {
      throw new RuntimeError(
        `the API needs a passphrase and none is configured: set AGENTWATCH_API_PASSPHRASE, or run agentwatch passphrase (or agentwatch --api) in a terminal; ${loaded.path}`,
      );
    }
    io.stderr.write('The API is protected by a token derived from a passphrase. None is configured yet.\n');
    const saved = await saveNewPassphrase(io, await askNewPassphrase(io));
    return { token: Promise.resolve(saved.token), salt: saved.salt };
  }
  const fromEnv = Boolean(io.env.AGENTWATCH_API_PASSPHRASE?.trim());
  const problem = passphraseProblem(passphrase);
  if (problem) throw new RuntimeError(`${fromEnv ? 'AGENTWATCH_API_PASSPHRASE' : `${loaded.path}: api_passphrase`}: ${problem}`);
  const token = deriveToken(passphrase, salt);
  // Awaited later; a failure surfaces there, not as an unhandled rejection meanwhile.
  token.catch(() => undefined);
  return { token, salt };
};

/** The token's derivation started, then the socket listening on `address` (default 127.0.0.1, ports 7421-7431). */
export const prepareApi = async (io: CliIo, loaded: Loaded, address: ListenAddress | undefined): Promise<PreparedApi> => {
  const { token, salt } = await prepareApiToken(io, loaded);
  const host = address?.host ?? DEFAULT_HOST;
  const allowedHosts = allowedHostsFor(host);
  let door: FrontDoor;
  try {
    door = await openFrontDoor({ host, ports: address ? [address.port] : FALLBACK_PORTS, allowedHosts, auth: authInfo(salt) });
  } catch (error) {
    throw new RuntimeError((error as Error).message);
  }
  const baseUrl = `http://${formatAddress(door.address)}`;
  io.stderr.write(`agentwatch: API listening on ${baseUrl} (playground: ${baseUrl}/api)\n`);
  if (allowedHosts === 'any') {
    io.stderr.write(`agentwatch: warning: ${host} is not a loopback address; the API is reachable from other machines (token required)\n`);
  }
  return { token, salt, door, baseUrl };
};
