import { access } from 'node:fs/promises';
import path from 'node:path';
import { homeDir, xdgConfigHome, type Env } from '../config/paths.js';
import { LimitError } from './types.js';

/** Cursor's access token from its state database; `undefined` when the file or row is absent. */
export type CursorTokenRead = (dbPath: string) => Promise<string | undefined>;

const TOKEN_KEY = 'cursorAuth/accessToken';

/** Where Cursor keeps its VS Code-style global state (docs/formats/cursor.md). */
export const cursorDbPath = (env: Env, platform: NodeJS.Platform): string =>
  platform === 'darwin'
    ? path.join(homeDir(env), 'Library', 'Application Support', 'Cursor', 'User', 'globalStorage', 'state.vscdb')
    : path.join(xdgConfigHome(env), 'Cursor', 'User', 'globalStorage', 'state.vscdb');

/** ItemTable values are TEXT or BLOB; BLOBs have been seen as UTF-8 and as UTF-16LE. */
export const decodeItemValue = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) {
    const utf16 = value.length >= 2 && value[1] === 0;
    return value.toString(utf16 ? 'utf16le' : 'utf8').replace(/\0/g, '');
  }
  return undefined;
};

/**
 * Opens the database read-only (Cursor may be running and owns it) and reads one row. The
 * native module loads only here, so the other providers never pay for it.
 */
export const sqliteCursorTokenRead: CursorTokenRead = async (dbPath) => {
  try {
    await access(dbPath);
  } catch {
    return undefined;
  }
  const { default: Database } = await import('better-sqlite3');
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const row = db.prepare('SELECT value FROM ItemTable WHERE key = ?').get(TOKEN_KEY) as { value?: unknown } | undefined;
    const token = decodeItemValue(row?.value)?.trim();
    return token ? token : undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LimitError('E_BAD_CREDENTIAL', `could not read Cursor's ${dbPath} (${reason})`);
  } finally {
    db?.close();
  }
};
