import { describe, expect, it } from 'vitest';
import { deriveToken, tokensEqual, TOKEN_DERIVATION } from '../../../src/sinks/http/token.js';

describe('deriveToken', () => {
  it('matches the published test vector (pippo + lazyagent-api-v1)', async () => {
    await expect(deriveToken('pippo', 'lazyagent-api-v1')).resolves.toBe('zqh9_r0QeYpLiLSQGZMYriIWqNZgZOu3Qc_l7wtraV4');
  });

  it('trims the passphrase but not the salt', async () => {
    const plain = await deriveToken('pippo', 'lazyagent-api-v1');
    await expect(deriveToken('  pippo\n', 'lazyagent-api-v1')).resolves.toBe(plain);
    await expect(deriveToken('pippo', ' lazyagent-api-v1')).resolves.not.toBe(plain);
  });

  it('is 43 base64url characters without padding', async () => {
    const token = await deriveToken('a passphrase of some length', 'x');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(TOKEN_DERIVATION).toEqual({ iterations: 600_000, keyLength: 32, hash: 'SHA-256', encoding: 'base64url-no-padding' });
  });
});

describe('tokensEqual', () => {
  it('accepts only the exact token', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('abc', 'ab')).toBe(false);
    expect(tokensEqual('abc', '')).toBe(false);
  });
});
