import { closeSync, openSync, readSync } from 'node:fs';

const ID = /"id":"([^"\\]{1,64})"/g;

/**
 * Every `"id":"…"` value in the first `offset` bytes of `file` (message and tool call ids), or an
 * empty set when it cannot be read. A parser resumed after a warm start seeds what it has already
 * seen from them: Gemini CLI writes a message again whenever it changes, and only its first copy
 * is a new message.
 */
export const idsBefore = (file: string, offset: number): Set<string> => {
  const ids = new Set<string>();
  if (offset <= 0) return ids;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.allocUnsafe(offset);
    const read = readSync(fd, head, 0, offset, 0);
    for (const match of head.subarray(0, read).toString('utf8').matchAll(ID)) ids.add(match[1] as string);
  } catch {
    // Unreadable now: every row after the offset is taken as new.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return ids;
};
