import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { widthOf } from '../../src/commands/limits.js';

const stdoutWith = (columns: number | undefined): PassThrough & { columns?: number } => Object.assign(new PassThrough(), columns === undefined ? {} : { columns });

describe('limits layout width', () => {
  it('uses the terminal columns when the terminal reports them', () => {
    expect(widthOf({ env: {}, stdout: stdoutWith(132) })).toBe(132);
  });

  it('treats a pty reporting 0 columns as unknown: COLUMNS, else 100 (the table, not the stacked fallback)', () => {
    expect(widthOf({ env: {}, stdout: stdoutWith(0) })).toBe(100);
    expect(widthOf({ env: { COLUMNS: '90' }, stdout: stdoutWith(0) })).toBe(90);
  });

  it('falls back to COLUMNS, then 100, when stdout is not a terminal', () => {
    expect(widthOf({ env: { COLUMNS: '72' }, stdout: stdoutWith(undefined) })).toBe(72);
    expect(widthOf({ env: { COLUMNS: 'wide' }, stdout: stdoutWith(undefined) })).toBe(100);
  });
});
