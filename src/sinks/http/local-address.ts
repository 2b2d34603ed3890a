import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

/**
 * Whether the server can listen on `address` here: the wildcards, loopback, or an address of one
 * of this machine's interfaces. Anything else fails at listen with EADDRNOTAVAIL; --host says so
 * up front as a one-line usage error instead of a failure after start-up.
 */
export const isLocalAddress = (address: string, interfaces = networkInterfaces()): boolean => {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  if (bare === '0.0.0.0' || bare === '::' || bare === '::1' || bare === '::ffff:127.0.0.1') return true;
  if (isIP(bare) === 4 && bare.startsWith('127.')) return true;
  return Object.values(interfaces).some((list) => (list ?? []).some((entry) => entry.address.toLowerCase() === bare));
};
