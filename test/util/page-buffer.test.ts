import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pageBuffer } from '../../src/util/page-buffer.js';
import { createScratch, WHOLE_READ_BYTES } from '../../src/sources/internal/read-lines.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

const PAGE = 65_536;
/** A WebAssembly memory (what V8 maps itself) comes in whole 64 KiB pages and is the whole ArrayBuffer. */
const isPageMapped = (buffer: Buffer): boolean => buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.length && buffer.length % PAGE === 0;

describe('pageBuffer', () => {
  it('is a whole number of 64 KiB pages, at least the size asked, mapped outside malloc', () => {
    const buffer = pageBuffer(3 * 1024 * 1024 + 1);
    expect(buffer.length).toBe(49 * PAGE);
    expect(isPageMapped(buffer)).toBe(true);
    expect(isPageMapped(Buffer.allocUnsafe(3 * 1024 * 1024 + 1))).toBe(false);
  });

  it('reads a file like any Buffer', () => {
    const file = path.join(temp.home, 'lines.jsonl');
    writeFileSync(file, '{"a":1}\n{"b":2}\n');
    const buffer = pageBuffer(16);
    const fd = openSync(file, 'r');
    try {
      expect(readSync(fd, buffer, 0, buffer.length, 0)).toBe(16);
    } finally {
      closeSync(fd);
    }
    expect(buffer.subarray(0, 16).toString('utf8')).toBe('{"a":1}\n{"b":2}\n');
  });

  it('falls back to a plain buffer of the exact size where there is no WebAssembly (node --jitless)', () => {
    const built = fileURLToPath(new URL('../../dist/util/page-buffer.js', import.meta.url));
    const script = `import { pageBuffer } from ${JSON.stringify(built)}; const b = pageBuffer(3 * 1024 * 1024 + 1); b.write('ok'); console.log(typeof WebAssembly, b.length, b.toString('utf8', 0, 2));`;
    const out = execFileSync(process.execPath, ['--jitless', '--no-warnings', '--input-type=module', '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(out.trim()).toBe(`undefined ${3 * 1024 * 1024 + 1} ok`);
  });

  it('is what a read scratch buffer grows into, up to the whole-read cap', () => {
    const scratch = createScratch();
    const grown = scratch.get(5 * 1024 * 1024 + 7);
    expect(isPageMapped(grown)).toBe(true);
    expect(scratch.get(64 * 1024 * 1024).length).toBe(WHOLE_READ_BYTES);
    scratch.trim();
    expect(scratch.get(10).length).toBeLessThan(WHOLE_READ_BYTES);
  });
});
