import { pbkdf2, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);

/**
 * The token derivation lazyagent's clients (browser playground, iOS app, scripts) already use, so
 * they work unchanged: PBKDF2-HMAC-SHA256 over the trimmed passphrase, salt as UTF-8.
 * `GET /api/auth` publishes these fields (the salt is public by design).
 */
export const TOKEN_DERIVATION = {
  iterations: 600_000,
  keyLength: 32,
  hash: 'SHA-256',
  encoding: 'base64url-no-padding',
} as const;

/** `GET /api/auth`: what a client needs to derive the token itself (the salt is public by design). */
export const authInfo = (salt: string) => ({
  salt,
  iterations: TOKEN_DERIVATION.iterations,
  key_length: TOKEN_DERIVATION.keyLength,
  hash: TOKEN_DERIVATION.hash,
  encoding: TOKEN_DERIVATION.encoding,
});

/** Derive the bearer token (43 base64url characters). Async: 600k iterations would block the event loop noticeably. */
export const deriveToken = async (passphrase: string, salt: string): Promise<string> => {
  const key = await pbkdf2Async(
    Buffer.from(passphrase.trim(), 'utf8'),
    Buffer.from(salt, 'utf8'),
    TOKEN_DERIVATION.iterations,
    TOKEN_DERIVATION.keyLength,
    'sha256',
  );
  // Node's base64url never pads, which is exactly the wire encoding.
  return key.toString('base64url');
};

/**
 * Constant-time comparison of a presented token with the expected one. Lengths differ only for
 * garbage input; comparing the expected token with itself keeps the timing the same anyway.
 */
export const tokensEqual = (expected: string, presented: string): boolean => {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
};
