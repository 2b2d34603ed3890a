import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isOutdated, openOwnedDb, type OwnedDbOptions } from '../../src/util/owned-db.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

const options = (file: string, more: Partial<OwnedDbOptions> = {}): OwnedDbOptions => ({
  file,
  busyTimeoutMs: 1000,
  version: 3,
  create: (db) => db.exec('CREATE TABLE items (name TEXT); PRAGMA user_version = 3;'),
  wal: 'always',
  privateDir: 'must',
  privateFile: 'must',
  unusable: 'remove',
  ...more,
});

/** A database file of `version` holding `table`, closed. */
const writeDb = (file: string, version: number, table = 'items'): void => {
  const db = new Database(file);
  db.exec(`CREATE TABLE ${table} (name TEXT); PRAGMA user_version = ${version};`);
  db.close();
};

describe('openOwnedDb', () => {
  it('creates a new file 0600 in a 0700 directory, in WAL mode from the start when asked', async () => {
    const file = path.join(temp.home, 'cache', 'agentwatch', 'own.db');
    const { db, rebuilt } = openOwnedDb(options(file));
    expect(rebuilt).toBe(false);
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
  });

  it('`unless-new`: a new file stays in rollback-journal mode; an existing one opens in WAL mode', () => {
    const file = path.join(temp.home, 'own.db');
    const fresh = openOwnedDb(options(file, { wal: 'unless-new' })).db;
    expect(fresh.pragma('journal_mode', { simple: true })).toBe('delete');
    fresh.close();
    const again = openOwnedDb(options(file, { wal: 'unless-new' })).db;
    expect(again.pragma('journal_mode', { simple: true })).toBe('wal');
    again.close();
  });

  it('checks a file at its version, and migrates one of a version it has a step for', () => {
    const file = path.join(temp.home, 'own.db');
    writeDb(file, 2);
    const checked: number[] = [];
    const opened = openOwnedDb(
      options(file, {
        check: () => checked.push(3),
        migrate: { 2: (db) => db.exec('ALTER TABLE items ADD COLUMN size INTEGER; PRAGMA user_version = 3;') },
      }),
    );
    expect(opened.rebuilt).toBe(false);
    expect(opened.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('items')).toEqual(['name', 'size']);
    opened.db.close();
    const again = openOwnedDb(options(file, { check: () => checked.push(3) }));
    expect(checked).toEqual([3]);
    again.db.close();
  });

  it('`remove`: a file of another version is removed and a new one started; one an earlier build wrote is said to be outdated', () => {
    const file = path.join(temp.home, 'own.db');
    writeDb(file, 2);
    const refused: { outdated: boolean; aside: string | undefined }[] = [];
    const onRefused = (error: Error, aside: string | undefined): number => refused.push({ outdated: isOutdated(error), aside });
    const opened = openOwnedDb(options(file, { wroteEarlier: (_, version) => version === 2, onRefused }));
    expect(opened.rebuilt).toBe(true);
    expect(opened.db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(0);
    opened.db.close();
    writeDb(file + '.other', 9);
    const other = openOwnedDb(options(file + '.other', { wroteEarlier: (_, version) => version === 2, onRefused }));
    other.db.close();
    expect(refused).toEqual([
      { outdated: true, aside: undefined },
      { outdated: false, aside: undefined },
    ]);
  });

  it('moves a file it cannot use aside, keeping it, and starts a new one', async () => {
    const file = path.join(temp.home, 'own.db');
    await writeFile(file, 'not a database, but someone’s file');
    const told: (string | undefined)[] = [];
    const { db, rebuilt } = openOwnedDb(options(file, { unusable: { aside: (f) => `${f}.aside` }, onRefused: (_, aside) => told.push(aside) }));
    expect(db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(0);
    db.close();
    expect(rebuilt).toBe(true);
    expect(told).toEqual([`${file}.aside`]);
    expect(await readFile(`${file}.aside`, 'utf8')).toBe('not a database, but someone’s file');
  });

  it('`keep`: a file it cannot use is left as it is and the error thrown', async () => {
    const file = path.join(temp.home, 'own.db');
    writeDb(file, 9);
    expect(() => openOwnedDb(options(file, { unusable: 'keep' }))).toThrow('schema version 9, expected 3');
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(9);
    db.close();
  });

  it('read-only: opens an existing file as it is, and never creates one', () => {
    const file = path.join(temp.home, 'own.db');
    expect(() => openOwnedDb(options(file, { readonly: true }))).toThrow();
    writeDb(file, 1);
    const { db } = openOwnedDb(options(file, { readonly: true }));
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.readonly).toBe(true);
    db.close();
  });
});
