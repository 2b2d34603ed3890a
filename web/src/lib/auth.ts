import { base64Url, fragmentWithoutToken, tokenFromFragment } from './token.js';
import type { AuthParameters } from './wire.js';

/**
 * Where the dashboard's token comes from: the URL fragment `--gui` opens it with (read once, then
 * removed from the address bar and history), else this tab's sessionStorage, else the passphrase
 * form, which derives it here with Web Crypto (PBKDF2 per `GET /api/auth`).
 */

const KEY = 'agentwatch.token';

export const takeTokenFromUrl = (): string | undefined => {
  const token = tokenFromFragment(location.hash);
  if (token === undefined) return undefined;
  history.replaceState(history.state, '', `${location.pathname}${location.search}${fragmentWithoutToken(location.hash)}`);
  return token;
};

export const storedToken = (): string | undefined => {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
};

export const storeToken = (token: string | undefined): void => {
  try {
    if (token === undefined) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, token);
  } catch {
    // Storage disabled: the token lives as long as the page.
  }
};

/** Derive the bearer token from a passphrase exactly as the server does (trimmed, salt as UTF-8). */
export const deriveToken = async (passphrase: string, params: AuthParameters): Promise<string> => {
  if (!globalThis.crypto?.subtle) {
    throw new Error('this page is not a secure context, so the browser offers no Web Crypto: open it at http://127.0.0.1 or http://localhost, or use the link agentwatch --gui prints');
  }
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(passphrase.trim()), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: params.hash, salt: encoder.encode(params.salt), iterations: params.iterations },
    key,
    params.key_length * 8,
  );
  return base64Url(new Uint8Array(bits));
};
