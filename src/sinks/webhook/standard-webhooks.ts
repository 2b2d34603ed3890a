import { createHmac } from 'node:crypto';
import { SECRET_PREFIX } from '../../config/standard-secret.js';

/**
 * The symmetric scheme of the Standard Webhooks spec (standardwebhooks.com), for receivers built
 * on its libraries: headers `webhook-id`, `webhook-timestamp` (integer Unix seconds of the attempt)
 * and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`. The secret is
 * serialised as `whsec_` + base64 of 24 to 64 random bytes; the HMAC key is the decoded bytes.
 */

/** The HMAC key of a valid `whsec_` secret. */
const standardKey = (secret: string): Buffer => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** `v1,<base64>` over `${id}.${timestamp}.${body}`. */
export const standardSignature = (id: string, timestampSeconds: number, body: string, secret: string): string =>
  `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;

/** The three headers of one attempt (`at` is its wall-clock time, ms). */
export const standardHeaders = (id: string, body: string, secret: string, at: number): Record<string, string> => {
  const timestamp = Math.floor(at / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': standardSignature(id, timestamp, body, secret) };
};
