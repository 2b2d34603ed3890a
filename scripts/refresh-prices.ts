/**
 * Rebuilds the shipped price table (src/streams/prices/litellm-prices.json) from LiteLLM's
 * model price file: `npm run prices:refresh` before a release.
 *
 *   npm run prices:refresh                     (reads the upstream URL)
 *   npm run prices:refresh -- --from <file>    (a copy of the upstream file already on disk)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { formatSnapshot, LITELLM_PRICES_URL, priceSnapshotSchema, trimUpstream } from '../src/streams/prices/snapshot.js';

const from = process.argv.indexOf('--from');
const text = from === -1 ? await (await fetch(LITELLM_PRICES_URL)).text() : await readFile(process.argv[from + 1] ?? '', 'utf8');
const upstream = JSON.parse(text) as Record<string, unknown>;
const stamp = typeof upstream['last_updated'] === 'string' ? upstream['last_updated'].slice(0, 10) : new Date().toISOString().slice(0, 10);
const snapshot = priceSnapshotSchema.parse(trimUpstream(upstream, stamp));
const target = new URL('../src/streams/prices/litellm-prices.json', import.meta.url);
await writeFile(target, formatSnapshot(snapshot));
console.log(`src/streams/prices/litellm-prices.json: ${Object.keys(snapshot.models).length} models (upstream of ${stamp})`);
