import { isIP } from 'node:net';

/** `--host` default, and the ports tried in order when `--host` is absent and 7421 is busy. */
export const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = 7421;
export const FALLBACK_PORTS: readonly number[] = Array.from({ length: 11 }, (_, i) => DEFAULT_PORT + i);

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const parsePort = (text: string): number | undefined => {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port <= 65_535 ? port : undefined;
};

/**
 * Pure: `--host ADDR` -> where to listen. Accepts `HOST:PORT`, `HOST`, `:PORT` (loopback),
 * `[IPv6]:PORT`, `[IPv6]` and a bare IPv6 address; port 0 asks the OS for a free port.
 * Returns a message for anything else.
 */
export const parseHostFlag = (value: string): ListenAddress | { readonly error: string } => {
  const text = value.trim();
  const bad = { error: `Invalid value for --host: ${JSON.stringify(value)} (expected HOST:PORT, e.g. 127.0.0.1:7421)` };
  if (text === '') return bad;
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1) return bad;
    host = text.slice(1, end);
    const rest = text.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return bad;
    portText = rest === '' ? undefined : rest.slice(1);
    if (isIP(host) !== 6) return bad;
  } else if (isIP(text) === 6) {
    host = text;
  } else {
    const colon = text.lastIndexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    portText = colon === -1 ? undefined : text.slice(colon + 1);
    if (host === '') host = DEFAULT_HOST;
    // A bare number is a port typed without its colon, never a host name worth resolving.
    if (/^\d+$/.test(host)) return { error: `Invalid value for --host: ${JSON.stringify(value)} (a port alone is written :${host})` };
    if (isIP(host) !== 4 && !HOSTNAME.test(host)) return bad;
  }
  const port = portText === undefined ? DEFAULT_PORT : parsePort(portText);
  if (port === undefined) return { error: `Invalid port in --host ${JSON.stringify(value)} (expected 0 to 65535)` };
  return { host, port };
};

/** `host:port` for messages and URLs (IPv6 in brackets). */
export const formatAddress = (address: ListenAddress): string =>
  `${isIP(address.host) === 6 ? `[${address.host}]` : address.host}:${address.port}`;
