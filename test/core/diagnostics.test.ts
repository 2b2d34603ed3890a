import { describe, expect, it } from 'vitest';
import { needingAttention } from '../../src/core/diagnostics.js';

describe('needingAttention', () => {
  it('counts what needs the user (doctor is unhealthy then), not lines or records skipped inside readable files', () => {
    expect(needingAttention({})).toBe(0);
    expect(needingAttention({ 'cursor:E_SCHEMA': 16, 'claude:E_JUNK_LINE': 3, 'codex:E_UNKNOWN_RECORD': 1, 'pi:E_OVERSIZED_LINE': 1, 'claude:E_CACHE': 1 })).toBe(0);
    expect(needingAttention({ 'cursor:E_SCHEMA': 16, 'cursor:E_DB_LOCKED': 1, 'claude:E_READ': 2, 'opencode:E_DB_CORRUPT': 1, 'kilo:E_DB_SCHEMA': 1, 'claude:E_WATCH': 1 })).toBe(6);
  });
});
