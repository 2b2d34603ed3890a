import { describe, expect, it } from 'vitest';
import { allowedHostsFor, hostnameOf, isAllowedHost, isLoopbackHost } from '../../../src/sinks/http/host-check.js';

describe('hostnameOf', () => {
  it.each([
    ['localhost:7421', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]:7421', '::1'],
    ['[::1]', '::1'],
    ['evil.example:7421', 'evil.example'],
    ['', undefined],
    [':7421', undefined],
    ['a:b:c', undefined],
    ['localhost:port', undefined],
    ['[::1', undefined],
    ['[::1]x', undefined],
  ])('%j -> %j', (header, expected) => {
    expect(hostnameOf(header)).toBe(expected);
  });
});

describe('isAllowedHost', () => {
  const loopback = allowedHostsFor('127.0.0.1');
  it.each([
    ['localhost:7421', true],
    ['127.0.0.1:7421', true],
    ['[::1]:7421', true],
    ['evil.example:7421', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.nip.io', false],
    [undefined, false],
  ])('loopback server, Host %j -> %j', (header, expected) => {
    expect(isAllowedHost(header, loopback)).toBe(expected);
  });

  it('adds the bound name, and answers every name when bound to a non-loopback address on purpose', () => {
    expect(isAllowedHost('127.0.0.2:9000', allowedHostsFor('127.0.0.2'))).toBe(true);
    expect(allowedHostsFor('0.0.0.0')).toBe('any');
    expect(allowedHostsFor('192.168.1.10')).toBe('any');
    expect(isAllowedHost('my-laptop.lan:7421', 'any')).toBe(true);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.1', false],
    ['127.example.com', false],
    // Every form the resolver (inet_aton) binds to 127.x.x.x, and IPv6 spellings of loopback.
    ['127.1', true],
    ['127.0.1', true],
    ['2130706433', true],
    ['0x7f.1', true],
    ['0177.0.0.1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['[::ffff:7f00:1]', true],
    ['10.1', false],
    ['167772161', false],
    ['127.256.0.1', false],
    ['127.0.0.1.5', false],
    ['4294967296', false],
    ['::ffff:10.0.0.1', false],
    ['0x7f.example', false],
    ['', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
