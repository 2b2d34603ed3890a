import { describe, expect, it } from 'vitest';
import { diffStamps } from '../../../src/sources/sqlite/diff.js';
import { classifyDbError, DbSchemaError } from '../../../src/sources/sqlite/errors.js';
import { parseJsonValue } from '../../../src/sources/sqlite/values.js';

const sqliteError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe('diffStamps', () => {
  it('replays new and changed sessions and drops vanished ones', () => {
    const previous = new Map([['a', '1'], ['b', '1'], ['c', '1']]);
    const current = new Map([['a', '1'], ['b', '2'], ['d', '1']]);
    expect(diffStamps(previous, current)).toEqual({ changed: ['b', 'd'], removed: ['c'] });
    expect(diffStamps(current, current)).toEqual({ changed: [], removed: [] });
  });
});

describe('classifyDbError', () => {
  it.each([
    ['SQLITE_BUSY', 'database is locked', 'E_DB_LOCKED'],
    ['SQLITE_BUSY_RECOVERY', 'database is locked', 'E_DB_LOCKED'],
    ['SQLITE_LOCKED', 'database table is locked', 'E_DB_LOCKED'],
    ['SQLITE_CORRUPT', 'database disk image is malformed', 'E_DB_CORRUPT'],
    ['SQLITE_NOTADB', 'file is not a database', 'E_DB_CORRUPT'],
    ['SQLITE_ERROR', 'no such column: data', 'E_DB_SCHEMA'],
    ['SQLITE_CANTOPEN', 'unable to open database file', 'E_READ'],
  ])('%s -> %s', (code, message, expected) => {
    const failure = classifyDbError('Kilo', '/d/kilo.db', sqliteError(code, message));
    expect(failure.code).toBe(expected);
    expect(failure.message).toContain('Kilo');
    expect(failure.message).toContain('/d/kilo.db');
    expect(failure.message).toContain(message);
  });

  it('a schema probe failure names what is missing', () => {
    const failure = classifyDbError('Cursor', '/s.vscdb', new DbSchemaError('table "cursorDiskKV" is missing'));
    expect(failure).toEqual({ code: 'E_DB_SCHEMA', message: expect.stringContaining('Cursor: unexpected schema in /s.vscdb: table "cursorDiskKV" is missing') });
  });
});

describe('parseJsonValue', () => {
  it('decodes TEXT and BLOB alike and describes what is wrong otherwise', () => {
    expect(parseJsonValue('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonValue(Buffer.from('{"a":1}'))).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonValue(null)).toEqual({ ok: false, error: 'value is NULL' });
    expect(parseJsonValue(42)).toEqual({ ok: false, error: 'value is a number, not text' });
    expect(parseJsonValue('{"a":')).toMatchObject({ ok: false, error: expect.stringContaining('invalid JSON (5 bytes)') });
  });
});
