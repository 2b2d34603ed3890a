import { fileURLToPath } from 'node:url';

/**
 * Amp records paths as `file://` URIs (`file:///home/dev/my%20app`). Percent-decode them into
 * plain paths; anything that is not a file URI is returned unchanged, and a malformed escape
 * keeps the raw text rather than dropping the path.
 */
export const fileUriToPath = (value: string): string => {
  if (!value.startsWith('file://')) return value;
  try {
    return fileURLToPath(value);
  } catch {
    const rest = value.slice('file://'.length);
    try {
      return decodeURIComponent(rest);
    } catch {
      return rest;
    }
  }
};
