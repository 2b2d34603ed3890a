/**
 * unicode61 vs trigram for the search index (issue 15): the same message rows (from an index
 * `bench/search.mjs` built) copied into one FTS5 table per tokenizer; size, build time, query time
 * and hits for an identifier word, a prefix, a snake_case name and a substring inside a word.
 *
 *   node bench/search.mjs && node bench/search-tokenizers.mjs
 */
import { statSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, '.corpus-idle', 'search-cache', 'agentwatch', 'search.db');
const rows = new Database(source, { readonly: true }).prepare('SELECT text FROM messages').all();
const tokenizers = { unicode61: `unicode61 remove_diacritics 2 tokenchars '_'`, trigram: 'trigram' };
const queries = { word: 'offset', prefix: 'pars*', snake: 'session_id', substring: 'ffse' };
const results = {};
for (const [name, tokenize] of Object.entries(tokenizers)) {
  const file = path.join(here, '.corpus-idle', `tok-${name}.db`);
  rmSync(file, { force: true });
  const db = new Database(file);
  db.exec(`CREATE VIRTUAL TABLE m USING fts5(text, tokenize = "${tokenize}")`);
  const insert = db.prepare('INSERT INTO m (text) VALUES (?)');
  const start = performance.now();
  db.transaction(() => rows.forEach((row) => insert.run(row.text)))();
  const buildMs = Math.round(performance.now() - start);
  db.exec('VACUUM');
  const out = { buildMs, sizeMiB: +(statSync(file).size / 1048576).toFixed(2), queries: {} };
  for (const [kind, q] of Object.entries(queries)) {
    const match = name === 'trigram' && q.endsWith('*') ? q.slice(0, -1) : q;
    const t = performance.now();
    let hits = 0;
    for (let i = 0; i < 20; i += 1) hits = db.prepare('SELECT count(*) AS n FROM m WHERE m MATCH ?').get(match).n;
    out.queries[kind] = { hits, ms: +((performance.now() - t) / 20).toFixed(2) };
  }
  db.close();
  rmSync(file, { force: true });
  results[name] = out;
}
console.log(`${rows.length} text blocks`);
for (const [name, r] of Object.entries(results)) {
  console.log(`  ${name.padEnd(9)} build ${r.buildMs} ms, ${r.sizeMiB} MiB; ${Object.entries(r.queries).map(([k, v]) => `${k} ${v.hits} hits ${v.ms} ms`).join('; ')}`);
}
console.log(JSON.stringify({ name: 'search-tokenizers', figures: results.unicode61, anchors: { trigram: results.trigram } }));
