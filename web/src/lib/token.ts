/**
 * Pure parts of the login: the token in a URL fragment, and the base64url encoding of a derived
 * key (43 characters, no padding; docs/api.md).
 */

const TOKEN_PARAM = /(?:^#|&)token=([^&]*)/;

/** The token carried by a fragment such as `#token=abc` or `#view=x&token=abc`; undefined when none. */
export const tokenFromFragment = (hash: string): string | undefined => {
  const match = TOKEN_PARAM.exec(hash.startsWith('#') ? hash : `#${hash}`);
  if (!match || match[1] === undefined || match[1] === '') return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
};

/** The fragment without its token parameter ("" when nothing else was in it). */
export const fragmentWithoutToken = (hash: string): string => {
  const rest = hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !part.startsWith('token='));
  return rest.length === 0 ? '' : `#${rest.join('&')}`;
};

export const base64Url = (bytes: Uint8Array): string => {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
