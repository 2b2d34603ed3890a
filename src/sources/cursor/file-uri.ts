/**
 * Cursor stores locations as percent-encoded `file://` URIs (`file:///Users/dev/my%20app`).
 * Decoding never throws: a malformed escape keeps the raw text.
 *
 * @example fileUriToPath('file:///home/dev/my%20app') // '/home/dev/my app'
 */
export const fileUriToPath = (uri: string): string => {
  const rest = uri.startsWith('file://') ? uri.slice('file://'.length) : uri;
  let decoded = rest;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    // keep the raw text
  }
  // `file:///c%3A/Users/...` is a Windows drive path.
  return /^\/[A-Za-z]:[\\/]/.test(decoded) ? decoded.slice(1) : decoded;
};

const FILE_URI = /file:\/\/\/[^"\s\\]+/g;

/**
 * The deepest directory shared by the `file:///` URIs quoted in raw JSON text (at most `limit`
 * URIs are looked at), when it is at least two levels deep; the fallback working directory of a
 * composer that recorded no workspace.
 *
 * @example commonDirectory('"file:///w/app/src/a.ts" "file:///w/app/b.ts"') // '/w/app'
 */
export const commonDirectory = (rawJson: string, limit = 10): string | undefined => {
  const dirs: string[][] = [];
  for (const match of rawJson.matchAll(FILE_URI)) {
    const segments = fileUriToPath(match[0]).split('/').filter(Boolean);
    dirs.push(segments.slice(0, -1));
    if (dirs.length >= limit) break;
  }
  const first = dirs[0];
  if (!first) return undefined;
  let length = first.length;
  for (const dir of dirs.slice(1)) {
    let i = 0;
    while (i < length && i < dir.length && dir[i] === first[i]) i++;
    length = i;
  }
  return length >= 2 ? `/${first.slice(0, length).join('/')}` : undefined;
};
