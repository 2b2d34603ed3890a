import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSearchDb } from '../../src/search/index-db.js';
import { PAGE_CACHE_KIB, boundPageCache } from '../../src/util/sqlite-memory.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('SQLite page cache of long-lived connections', () => {
  it('better-sqlite3 gives a connection a 16 MB cache; boundPageCache brings it to SQLite’s default', () => {
    const db = new Database(':memory:');
    expect(db.pragma('cache_size', { simple: true })).toBe(-16_000);
    boundPageCache(db);
    expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    db.close();
  });

  it('the search index opens with the bounded cache', () => {
    const { db } = openSearchDb(temp.env);
    expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    db.close();
  });
});
