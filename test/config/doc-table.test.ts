import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withConfigTable } from '../../src/config/doc-table.js';

describe('docs/configuration.md', () => {
  it('holds the key table the config schema writes (npm run docs:config writes it again)', async () => {
    const page = await readFile(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    expect(page).toBe(withConfigTable(page));
  });

  it('the table names every key, with its default and what it takes', () => {
    const table = withConfigTable('<!-- config-table: written by npm run docs:config from src/config/schema.ts -->\n<!-- /config-table -->');
    expect(table).toContain('| `window_minutes` | integer | `30` | a whole number in 1..10080 |');
    expect(table).toContain('| `tui.theme` | string | `"auto"` | one of "auto", "dark", "light" |');
    expect(table).toContain('| `agents` | object | all `true` | true or false each |');
  });
});
