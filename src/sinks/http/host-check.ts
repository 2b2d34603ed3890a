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

/** Loopback addresses and names: binding to one of them keeps the API on this machine. */
export const isLoopbackHost = (host: string): boolean => {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
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
