import { isIP } from 'node:net';

/**
 * DNS-rebinding guard. A web page on evil.example can make the browser resolve its own name to
 * 127.0.0.1 and talk to us, but the browser still sends `Host: evil.example:7421`: answering only
 * to our own names closes that door. Pure so it is table-tested.
 */

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** The hostname of a Host header, lowercased, without port or IPv6 brackets; undefined when malformed. */
export const hostnameOf = (hostHeader: string): string | undefined => {
  const value = hostHeader.trim().toLowerCase();
  if (value === '') return undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end === -1) return undefined;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
    return value.slice(1, end);
  }
  const parts = value.split(':');
  if (parts.length > 2) return undefined;
  const [name, port] = parts;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return undefined;
  return name === '' ? undefined : name;
};

/**
 * The first byte of an IPv4 address in any form the resolver takes for one (inet_aton: `127.1`,
 * `2130706433`, `0x7f.1`, `0177.0.0.1`), or undefined for anything else (a name).
 */
const firstIpv4Byte = (name: string): number | undefined => {
  const parts = name.split('.');
  if (parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    const value = /^0x[0-9a-f]+$/.test(part) ? Number.parseInt(part.slice(2), 16) : /^0[0-7]*$/.test(part) ? Number.parseInt(part, 8) : /^[1-9][0-9]*$/.test(part) ? Number(part) : Number.NaN;
    if (!Number.isFinite(value)) return undefined;
    values.push(value);
  }
  // Every part but the last is one byte; the last fills the bytes left.
  const lastBytes = 5 - values.length;
  if (values.slice(0, -1).some((v) => v > 255) || (values.at(-1) as number) >= 2 ** (8 * lastBytes)) return undefined;
  return values.length > 1 ? values[0] : Math.floor((values[0] as number) / 2 ** 24);
};

/** An IPv6 address in its canonical form (`0:0:0:0:0:0:0:1` -> `::1`), or undefined. */
const canonicalIpv6 = (name: string): string | undefined => {
  if (isIP(name) !== 6) return undefined;
  try {
    return new URL(`http://[${name}]/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return undefined;
  }
};

/**
 * Loopback addresses and names: binding to one of them keeps the API on this machine. Every
 * spelling the resolver binds to loopback counts (`127.1`, `::ffff:127.0.0.1`): one that did
 * not would turn the Host guard off and warn that the API is reachable from other machines.
 */
export const isLoopbackHost = (host: string): boolean => {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost') return true;
  const v6 = canonicalIpv6(name);
  if (v6 !== undefined) return v6 === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(v6);
  return firstIpv4Byte(name) === 127;
};

/**
 * Which Host names the server answers to: 'any' when it was bound to a non-loopback address on
 * purpose (other machines reach it by names we cannot know); otherwise the loopback names plus
 * the bound host.
 */
export const allowedHostsFor = (boundHost: string): readonly string[] | 'any' =>
  isLoopbackHost(boundHost) ? [...new Set([...LOOPBACK_NAMES, boundHost.replace(/^\[|\]$/g, '').toLowerCase()])] : 'any';

/** The `{ error }` of a refused Host (403, before auth). */
export const HOST_REFUSED = 'host not allowed: use localhost or 127.0.0.1';

export const isAllowedHost = (hostHeader: string | undefined, allowed: readonly string[] | 'any'): boolean => {
  if (allowed === 'any') return true;
  if (hostHeader === undefined) return false;
  const name = hostnameOf(hostHeader);
  return name !== undefined && allowed.includes(name);
};
