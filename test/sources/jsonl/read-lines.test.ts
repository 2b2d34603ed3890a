import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LineItem } from '../../../src/sources/internal/lines.js';
import { createScratch, READ_CHUNK_BYTES, readLinesFrom, WHOLE_READ_BYTES } from '../../../src/sources/internal/read-lines.js';

const dirs: string[] = [];
const fileWith = (content: string | Buffer): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'aw-read-'));
  dirs.push(dir);
  const file = path.join(dir, 'session.jsonl');
  writeFileSync(file, content);
  return file;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const readAll = async (file: string, start: number, size: number, options: Parameters<typeof readLinesFrom>[4]) => {
  const items: LineItem[] = [];
  const chunks: number[] = [];
  const outcome = await readLinesFrom(file, start, size, (got, consumed) => {
    items.push(...got);
    chunks.push(consumed);
  }, options);
  return { items, chunks, outcome };
};

describe('readLinesFrom with a scratch buffer', () => {
  it('reads a file of several MiB in one call: a multi-MB line is a view into the scratch, not a copy', async () => {
    const big = `{"type":"user","content":"${'x'.repeat(3 * READ_CHUNK_BYTES)}"}`;
    const content = `{"type":"a"}\n${big}\n{"type":"b"}\npartial`;
    const file = fileWith(content);
    const scratch = createScratch();
    const { items, chunks, outcome } = await readAll(file, 0, Buffer.byteLength(content), { scratch });
    expect(chunks).toHaveLength(1);
    expect(items.map((i) => (i.kind === 'line' ? i.bytes.length : -1))).toEqual([12, big.length, 12]);
    const line = items[1];
    expect(line?.kind === 'line' && line.bytes.buffer === scratch.get(0).buffer).toBe(true);
    expect(outcome.consumed).toBe(content.length - 'partial'.length);
    expect(outcome.end).toBe(content.length);
  });

  it('reads from an offset, and a file over WHOLE_READ_BYTES in pieces of that size with the same lines', async () => {
    const line = `{"n":"${'y'.repeat(1000)}"}`;
    const count = Math.ceil((WHOLE_READ_BYTES * 1.5) / (line.length + 1));
    const content = `${line}\n`.repeat(count);
    const file = fileWith(content);
    const { items, chunks } = await readAll(file, line.length + 1, content.length, { scratch: createScratch() });
    expect(chunks).toHaveLength(2);
    expect(items).toHaveLength(count - 1);
    expect(items.every((i) => i.kind === 'line' && i.bytes.length === line.length)).toBe(true);
  });

  it('trim gives a grown buffer back and keeps a chunk-sized one', () => {
    const scratch = createScratch();
    const small = scratch.get(10);
    expect(small.length).toBe(READ_CHUNK_BYTES);
    scratch.trim();
    expect(scratch.get(10)).toBe(small);
    const grown = scratch.get(5 * READ_CHUNK_BYTES);
    expect(grown.length).toBe(5 * READ_CHUNK_BYTES);
    expect(scratch.get(WHOLE_READ_BYTES * 4).length).toBe(WHOLE_READ_BYTES);
    scratch.trim();
    expect(scratch.get(10).length).toBe(READ_CHUNK_BYTES);
  });
});
