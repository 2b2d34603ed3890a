/**
 * The secret of the Standard Webhooks scheme (standardwebhooks.com): `whsec_` + base64 of 24 to 64
 * random bytes. Checked when the config is read; the webhook sink signs with it.
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
