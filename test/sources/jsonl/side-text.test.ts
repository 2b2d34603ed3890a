import { mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { createSideTextReader, SIDE_TEXT_MAX_BYTES, SIDE_TEXT_RACY_MS } from '../../../src/sources/internal/side-text.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

/**
 * The side-file reader over a real discovery cache. That an unchanged file is not read again is
 * shown the one way it can be from outside: its bytes are replaced while its size and mtime are
 * put back, and the remembered text comes back (the trade any stat-only start makes, git's too).
 */
describe('side files through the discovery cache (stat-only warm start)', () => {
  let home: TempHome;
  let dir: string;
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-side-');
    dir = path.join(home.home, 'sessions');
    await mkdir(dir, { recursive: true });
  });
  afterEach(() => home.cleanup());

  /** Writes `text` to `file` with an mtime `ageMs` before `now`. */
  const plant = async (file: string, text: string, mtimeMs: number): Promise<void> => {
    await writeFile(file, text);
    await utimes(file, mtimeMs / 1000, mtimeMs / 1000);
  };
  /** One process: opens the cache, reads `file`, closes (the cache writes on close). */
  const startAndRead = (file: string, now: number): string | undefined => {
    const cache = openDiscoveryCache(home.env, quiet);
    try {
      return createSideTextReader('kimi', cache, () => now)(file);
    } finally {
      cache.close();
    }
  };

  it('gives back the remembered text of a file whose size and mtime did not change, and reads a changed one', async () => {
    const file = path.join(dir, 'state.json');
    const at = Date.parse('2026-11-20T10:00:00Z');
    const now = at + 60_000;
    await plant(file, '{"title":"first"}', at);
    expect(startAndRead(file, now)).toBe('{"title":"first"}');
    // Same size, mtime put back: a warm start trusts the stat and does not read.
    await plant(file, '{"title":"FIRST"}', at);
    expect(startAndRead(file, now)).toBe('{"title":"first"}');
    // A new mtime (or size): read again, and remembered anew.
    await plant(file, '{"title":"second"}', at + 1_000);
    expect(startAndRead(file, now)).toBe('{"title":"second"}');
    await plant(file, '{"title":"SECOND"}', at + 1_000);
    expect(startAndRead(file, now)).toBe('{"title":"second"}');
  });

  it('does not remember a file written within the racy window, nor a big one', async () => {
    const recent = path.join(dir, 'recent.json');
    const at = Date.parse('2026-11-20T10:00:00Z');
    await plant(recent, '{"title":"a"}', at);
    expect(startAndRead(recent, at + SIDE_TEXT_RACY_MS - 1)).toBe('{"title":"a"}');
    await plant(recent, '{"title":"b"}', at);
    expect(startAndRead(recent, at + 60_000)).toBe('{"title":"b"}');

    const big = path.join(dir, 'index.jsonl');
    const line = `${JSON.stringify({ sessionId: 's', workDir: '/w' })}\n`;
    const text = line.repeat(Math.ceil((SIDE_TEXT_MAX_BYTES + 1) / line.length));
    await plant(big, text, at);
    expect(startAndRead(big, at + 60_000)).toBe(text);
    const other = text.replace('"/w"', '"/x"');
    await plant(big, other, at);
    expect(startAndRead(big, at + 60_000)).toBe(other);
  });

  it('says undefined for a missing file and forgets it; forgets what a first pass did not ask for', async () => {
    const kept = path.join(dir, 'kept.json');
    const gone = path.join(dir, 'gone.json');
    const at = Date.parse('2026-11-20T10:00:00Z');
    const now = at + 60_000;
    await plant(kept, '{"title":"k"}', at);
    await plant(gone, '{"title":"g"}', at);
    expect(startAndRead(kept, now)).toBe('{"title":"k"}');
    expect(startAndRead(gone, now)).toBe('{"title":"g"}');
    await rm(gone);
    expect(startAndRead(gone, now)).toBeUndefined();
    // Recreated with the same bytes and mtime: read from disk (its row went with the file).
    await plant(gone, '{"title":"G"}', at);
    expect(startAndRead(gone, now)).toBe('{"title":"G"}');

    // A pass that asks for `kept` only forgets `gone` (deleted while nobody watched).
    const cache = openDiscoveryCache(home.env, quiet);
    createSideTextReader('kimi', cache, () => now)(kept);
    cache.forgetUnaskedSideTexts('grok');
    cache.forgetUnaskedSideTexts('kimi');
    cache.close();
    await plant(gone, '{"title":"g"}', at);
    await plant(kept, '{"title":"K"}', at);
    expect(startAndRead(gone, now)).toBe('{"title":"g"}');
    expect(startAndRead(kept, now)).toBe('{"title":"k"}');
  });

  it('reads every time without a cache', async () => {
    const file = path.join(dir, 'summary.json');
    const at = Date.parse('2026-11-20T10:00:00Z');
    await plant(file, '{"a":1}', at);
    const read = createSideTextReader('grok', undefined);
    expect(read(file)).toBe('{"a":1}');
    await plant(file, '{"a":2}', at);
    expect((await stat(file)).mtimeMs).toBe(at);
    expect(read(file)).toBe('{"a":2}');
    expect(read(path.join(dir, 'none.json'))).toBeUndefined();
  });
});
