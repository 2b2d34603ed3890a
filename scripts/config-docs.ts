/**
 * Writes the key table of docs/configuration.md from the config schema:
 * `npm run docs:config` after changing a key, a default or a bound (a test fails until then).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { withConfigTable } from '../src/config/doc-table.js';

const page = new URL('../docs/configuration.md', import.meta.url);
const before = await readFile(page, 'utf8');
const after = withConfigTable(before);
if (after !== before) await writeFile(page, after);
console.log(after === before ? 'docs/configuration.md: the key table is up to date' : 'docs/configuration.md: key table written');
