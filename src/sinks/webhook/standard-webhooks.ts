import { createHmac } from 'node:crypto';

/**
 * The symmetric scheme of the Standard Webhooks spec (standardwebhooks.com), for receivers built
 * on its libraries: headers `webhook-id`, `webhook-timestamp` (integer Unix seconds of the attempt)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. The secret is
 * serialised as `whsec_` + base64 of 24 to 64 random bytes; the HMAC key is the decoded bytes.
 */

export const SECRET_PREFIX = 'whsec_';
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

/** Why `secret` is not a Standard Webhooks secret, or undefined when it is one. */
export const standardSecretProblem = (secret: string | undefined): string | undefined => {
  const hint = `signature "standard-webhooks" needs secret "${SECRET_PREFIX}<base64 of ${MIN_KEY_BYTES}-${MAX_KEY_BYTES} random bytes>" (e.g. from: node -e "console.log('whsec_'+crypto.randomBytes(32).toString('base64'))")`;
  if (secret === undefined || !secret.startsWith(SECRET_PREFIX)) return hint;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return `${hint}; the part after ${SECRET_PREFIX} is not base64`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_KEY_BYTES || bytes > MAX_KEY_BYTES) return `${hint}; it decodes to ${bytes} bytes`;
  return undefined;
};

/** The HMAC key of a valid `whsec_` secret. */
export const standardKey = (secret: string): Buffer => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** `v1,<base64>` over `${id}.${timestamp}.${body}`. */
export const standardSignature = (id: string, timestampSeconds: number, body: string, secret: string): string =>
  `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;

/** The three headers of one attempt (`at` is its wall-clock time, ms). */
export const standardHeaders = (id: string, body: string, secret: string, at: number): Record<string, string> => {
  const timestamp = Math.floor(at / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': standardSignature(id, timestamp, body, secret) };
};
