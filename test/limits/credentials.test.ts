import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cursorDbPath, decodeItemValue, sqliteCursorTokenRead } from '../../src/limits/cursor-db.js';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import { userIdFromToken } from '../../src/sources/cursor/limits.js';
import { testCtx } from './helpers/limits-ctx.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { fixture, startVendorServer, type VendorServer } from './helpers/vendor-server.js';
import { agentLimits } from '../../src/sources/agents.js';

const jwt = (claims: object): string => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

let server: VendorServer;
let home: TempHome;
beforeAll(async () => {
  server = await startVendorServer({ claude: { fixture: 'claude/usage.json' }, cursor: { fixture: 'cursor/usage-summary.json' } });
  home = await makeTempHome({ claude: 'claude/credentials.json' }, server.url);
});
afterAll(async () => {
  await server.close();
  await home.remove();
});

describe('cursor token', () => {
  it('takes the JWT subject without its identity-provider prefix', () => {
    expect(userIdFromToken(jwt({ sub: 'auth0|user_01ABC' }))).toBe('user_01ABC');
    expect(userIdFromToken(jwt({ sub: 'google-oauth2|1234' }))).toBe('1234');
    expect(userIdFromToken(jwt({ sub: 'user_plain' }))).toBe('user_plain');
  });
  it('refuses a token without a readable subject', () => {
    expect(userIdFromToken('not-a-jwt')).toBeUndefined();
    expect(userIdFromToken(jwt({ exp: 1 }))).toBeUndefined();
    expect(userIdFromToken('a.%%%.c')).toBeUndefined();
  });
  it('decodes ItemTable values stored as TEXT, UTF-8 BLOB or UTF-16LE BLOB', () => {
    expect(decodeItemValue('tok')).toBe('tok');
    expect(decodeItemValue(Buffer.from('tok', 'utf8'))).toBe('tok');
    expect(decodeItemValue(Buffer.from('tok', 'utf16le'))).toBe('tok');
    expect(decodeItemValue(42)).toBeUndefined();
  });
  it('knows the macOS and Linux locations of state.vscdb', () => {
    expect(cursorDbPath({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/Cursor/User/globalStorage/state.vscdb');
    expect(cursorDbPath({ HOME: '/h' }, 'linux')).toBe('/h/.config/Cursor/User/globalStorage/state.vscdb');
    expect(cursorDbPath({ HOME: '/h', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Cursor/User/globalStorage/state.vscdb');
  });
  it('reads a TEXT row from a real database, and reports a database without ItemTable clearly', async () => {
    const dir = path.join(home.dir, 'dbs');
    await mkdir(dir, { recursive: true });
    const good = path.join(dir, 'text.vscdb');
    const db = new Database(good);
    db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE, value TEXT)');
    db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run('cursorAuth/accessToken', 'text-token');
    db.close();
    expect(await sqliteCursorTokenRead(good)).toBe('text-token');
    const wrong = path.join(dir, 'wrong.vscdb');
    new Database(wrong).exec('CREATE TABLE other (x)');
    await expect(sqliteCursorTokenRead(wrong)).rejects.toMatchObject({ code: 'E_BAD_CREDENTIAL', message: expect.stringContaining('no such table: ItemTable') });
    const junk = path.join(dir, 'junk.vscdb');
    await writeFile(junk, 'this is not a database');
    await expect(sqliteCursorTokenRead(junk)).rejects.toMatchObject({ code: 'E_BAD_CREDENTIAL' });
    expect(await sqliteCursorTokenRead(path.join(dir, 'missing.vscdb'))).toBeUndefined();
  });
  it('a redirect to the login page is a sign-in problem, not drift', async () => {
    server.route('cursor', { status: 302, headers: { location: '/login' } });
    const outcomes = await firstValueFrom(fetchLimits(testCtx(home.env, { readCursorToken: async () => jwt({ sub: 'auth0|u1' }) }), ['cursor'], agentLimits));
    expect(outcomes.cursor).toMatchObject({ kind: 'failed', code: 'E_UNAUTHORIZED', message: expect.stringContaining('redirected to /login (HTTP 302)') });
  });
});

describe('claude keychain item holding only MCP state', () => {
  it('falls through to the credentials file', async () => {
    const readKeychain = async (): Promise<string> => fixture('claude/credentials-mcp-only.json');
    server.requests.length = 0;
    const outcomes = await firstValueFrom(fetchLimits(testCtx(home.env, { platform: 'darwin', readKeychain }), ['claude'], agentLimits));
    expect(outcomes.claude).toMatchObject({ kind: 'ok' });
    expect(server.requests[0]?.headers.authorization).toMatch(/^Bearer sk-ant-oat01-FIXTURE/);
  });
  it('a keychain secret that is not JSON is a clear error that does not quote it', async () => {
    const readKeychain = async (): Promise<string> => 'garbage-secret-value';
    const outcomes = await firstValueFrom(fetchLimits(testCtx(home.env, { platform: 'darwin', readKeychain }), ['claude'], agentLimits));
    expect(outcomes.claude).toMatchObject({ kind: 'failed', code: 'E_BAD_CREDENTIAL', message: 'the keychain item "Claude Code-credentials" is not valid JSON' });
  });
});
