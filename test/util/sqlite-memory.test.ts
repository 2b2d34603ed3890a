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

describe('discovery cache writes', () => {
  it('leave no large-page cache behind (10,000 upserts in 20 writes)', async () => {
    const { execFileSync } = await import('node:child_process');
    const path = await import('node:path');
    const { fileURLToPath, pathToFileURL } = await import('node:url');
    const dist = (file: string): string => pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist', file)).href;
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { openDiscoveryCache } from ${JSON.stringify(dist('sources/internal/cache.js'))};
         import { emptySession } from ${JSON.stringify(dist('streams/empty-session.js'))};
         const cache = openDiscoveryCache(${JSON.stringify(temp.env)});
         const text = 'x'.repeat(280);
         const batches = [];
         for (let batch = 0; batch < 20; batch += 1) {
           const upserts = [];
           batches.push(upserts);
           for (let i = 0; i < 500; i += 1) {
             const id = 's' + batch + '-' + i;
             const state = { ...emptySession('claude', id), cwd: '/home/u/project/' + batch, recentMessages: Array.from({ length: 5 }, (_, at) => ({ role: 'user', text, at })) };
             upserts.push({ path: '/home/u/.claude/projects/p' + batch + '/' + id + '.jsonl', agent: 'claude', sessionId: id, offset: 1, size: 1, mtimeMs: 1, state });
           }
         }
         const rss0 = process.memoryUsage().rss;
         for (const upserts of batches) cache.write(upserts, []);
         process.stdout.write(String((process.memoryUsage().rss - rss0) / 2 ** 20));
         cache.close();`,
      ],
      { encoding: 'utf8' },
    );
    // Measured here: about 26 MiB (the JSON of the rows included), about 50 without the release.
    expect(Number(out)).toBeLessThan(38);
  });
});
