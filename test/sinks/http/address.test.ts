import net from 'node:net';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { formatAddress, parseHostFlag } from '../../../src/sinks/http/address.js';
import { listenOnFirstFree } from '../../../src/sinks/http/listen.js';

describe('parseHostFlag', () => {
  it.each([
    ['127.0.0.1:7421', { host: '127.0.0.1', port: 7421 }],
    ['127.0.0.1', { host: '127.0.0.1', port: 7421 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    [':8080', { host: '127.0.0.1', port: 8080 }],
    ['0.0.0.0:9000', { host: '0.0.0.0', port: 9000 }],
    ['[::1]:7500', { host: '::1', port: 7500 }],
    ['[::1]', { host: '::1', port: 7421 }],
    ['::1', { host: '::1', port: 7421 }],
    ['my-box.lan:7421', { host: 'my-box.lan', port: 7421 }],
  ])('%s', (value, expected) => {
    expect(parseHostFlag(value)).toEqual(expected);
  });

  it.each(['', 'a b:1', 'host:port', 'host:70000', '[::1', '[nothost]:1', 'http://localhost:7421', '127.0.0.1:-1'])('refuses %j', (value) => {
    expect(parseHostFlag(value)).toHaveProperty('error');
  });

  it('says how to write a port given alone', () => {
    expect(parseHostFlag('7500')).toEqual({ error: 'Invalid value for --host: "7500" (a port alone is written :7500)' });
  });

  it('formats IPv6 in brackets', () => {
    expect(formatAddress({ host: '::1', port: 1 })).toBe('[::1]:1');
    expect(formatAddress({ host: '127.0.0.1', port: 7421 })).toBe('127.0.0.1:7421');
  });
});

describe('listenOnFirstFree', () => {
  const occupy = async (): Promise<{ port: number; close: () => Promise<void> }> => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
  };

  it('skips a busy port and binds the next one', async () => {
    const busy = await occupy();
    const free = await occupy();
    await free.close();
    const server = createServer();
    try {
      await expect(listenOnFirstFree(server, '127.0.0.1', [busy.port, free.port])).resolves.toEqual({ host: '127.0.0.1', port: free.port });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await busy.close();
    }
  });

  it('fails with a clear message when every port is busy', async () => {
    const busy = await occupy();
    const server = createServer();
    try {
      await expect(listenOnFirstFree(server, '127.0.0.1', [busy.port])).rejects.toThrow(`cannot listen on 127.0.0.1: port ${busy.port} already in use`);
      expect(server.listening).toBe(false);
    } finally {
      await busy.close();
    }
  });
});
