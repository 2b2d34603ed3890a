import { createHmac } from 'node:crypto';

/** The header value prefix, as GitHub writes it, so existing verifiers work unchanged. */
const SIGNATURE_PREFIX = 'sha256=';

/**
 * `sha256=<lowercase hex HMAC-SHA256>` of the exact body bytes. Pure: the same body and secret
 * always give the same value, so a receiver recomputes it over the raw request body.
 *
 * @example signBody('{"a":1}', 'shh') // 'sha256=6e…'
 */
export const signBody = (body: string | Uint8Array, secret: string): string =>
  SIGNATURE_PREFIX + createHmac('sha256', secret).update(body).digest('hex');
