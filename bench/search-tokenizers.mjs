/**
 * Which FTS5 tokenizer for the search index (docs/search.md): the same message rows indexed three ways,
 * measured on size, build time, query time and on whether each of a set of typical queries finds
 * the message it is about (code identifiers, file names, and text in scripts without spaces).
 *
 *   A  unicode61, `_` as a token character (identifiers whole), queries as typed (punctuated words quoted)
 *   B  unicode61 + the index's segmentation (src/search/segment.ts: characters of unspaced scripts
 *      apart, camelCase parts in a second column) and its query preparation (query-syntax.ts)
 *   C  trigram (substrings of 3+ characters), queries as typed (punctuated words quoted)
 *   D  unicode61 + `Intl.Segmenter` words in place of the segmentation's regexes (unspaced scripts cut
 *      at the dictionary's word boundaries, the same cut on queries), camelCase parts as B
 *
 * Beside each build, the segmentation alone, before any build: the time to cut every row (B's
 * regexes, D's segmenter; none for A and C), the best of three passes; and, once, the camelCase
 * parts B and D both add (identifierParts).
 *
 * Rows: `--rows N` generated messages (seeded): English prose with code identifiers, file names and
 * paths, and 5 % in Chinese, Japanese, Korean, Russian, Greek, Hindi, German and French; plus the
 * needles the queries are about. Needs `npm run build` (uses dist/).
 *
 *   node bench/search-tokenizers.mjs [--rows 50000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { identifierParts, segment } from '../dist/search/segment.js';
import { prepareQuery } from '../dist/search/query-syntax.js';
import { arg, percentile } from './util.mjs';

const rowsWanted = arg('rows', 50_000);

const mulberry32 = (seed) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const rand = mulberry32(15);
const pick = (list) => list[Math.floor(rand() * list.length)];

const PROSE = 'the a to of and in is it for that this with on be as we can now then so but not add fix check run test update change move use keep make see read write file code line error value result state event session token window cache offset stream path record parse build config server client request response handler function method class type interface module import export return async await promise callback loop query index table column row schema migration deploy release branch commit merge review comment'.split(' ');
const IDENTS = 'getUserById parseConfig loadSession refreshToken handleRequest buildIndex readLines writeFile createServer fetchLimits sessionKey userId apiKey maxRetries retryDelay onChange useEffect setState HTTPServer XMLParser JSONSchema toISOString'.split(' ');
const SNAKE = 'session_id user_name max_tokens created_at api_key cache_dir file_path exit_code'.split(' ');
const FILES = 'server.go app.ts index.js main.rs config.json README.md package.json src/cli.ts lib/utils.py tests/test_api.py'.split(' ');
const OTHER = [
  '我们需要更新配置文件并重新运行测试',
  '请检查日志中的错误信息',
  'テストを実行してからデプロイしてください',
  '設定ファイルを読み込めません',
  '테스트를 실행하고 결과를 확인하세요',
  'Нужно обновить конфигурацию и перезапустить сервер',
  'Πρέπει να ενημερώσουμε τη διαμόρφωση',
  'कृपया कॉन्फ़िगरेशन फ़ाइल की जाँच करें',
  'Bitte die Konfiguration prüfen und den Server neu starten',
  'Il faut vérifier la configuration du serveur',
];

const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(rand() * 30) }, () => {
    const r = rand();
    if (r < 0.08) return pick(IDENTS);
    if (r < 0.12) return pick(SNAKE);
    if (r < 0.15) return pick(FILES);
    return pick(PROSE);
  });
  return `${words.join(' ')}.`;
};

/** The messages the queries are about; none of their distinctive words occur in the generated rows. */
const NEEDLES = {
  oauth: 'Fixed the OAuth refresh race in refreshTokenIfNeeded(): two tabs no longer log the user out.',
  rename: 'Renamed pending_writes to pendingWrites in src/store/cache.ts and updated the callers.',
  bucket: 'The token-bucket limiter in ratelimit.go now allows bursts of 20.',
  typescript: 'We moved the worker from JavaScript to TypeScript last sprint.',
  zh: '修复了刷新令牌的竞争条件，两个标签页不会再同时登出。',
  ja: 'キャッシュの無効化処理を修正しました。',
  ko: '캐시 무효화 버그를 고쳤습니다',
  ru: 'Исправил гонку при обновлении токена доступа',
  el: 'Διόρθωση σφάλματος στην ανανέωση διακριτικού',
  hi: 'कैश अमान्यकरण की त्रुटि ठीक की गई',
  de: 'Die Größe der Datei wird jetzt geprüft',
  fr: 'La requête échoue quand le délai expire',
};

/** [query, needle it should find]: how people search. */
const QUERIES = [
  ['oauth', 'oauth'],
  ['OAuth refresh', 'oauth'],
  ['"refresh race"', 'oauth'],
  ['refreshTokenIfNeeded', 'oauth'],
  ['refreshtokenifneeded', 'oauth'],
  ['IfNeeded', 'oauth'],
  ['refreshTokenIf*', 'oauth'],
  ['pendingWrites', 'rename'],
  ['pending_writes', 'rename'],
  ['pending', 'rename'],
  ['cache.ts', 'rename'],
  ['src/store/cache.ts', 'rename'],
  ['token-bucket', 'bucket'],
  ['ratelimit.go', 'bucket'],
  ['typescript', 'typescript'],
  ['刷新', 'zh'],
  ['令牌', 'zh'],
  ['竞争条件', 'zh'],
  ['無効化', 'ja'],
  ['キャッシュ', 'ja'],
  ['캐시', 'ko'],
  ['버그', 'ko'],
  ['токена', 'ru'],
  ['обновлени*', 'ru'],
  ['διόρθωση', 'el'],
  ['διορθωση', 'el'],
  ['अमान्यकरण', 'hi'],
  ['große', 'de'],
  ['grosse', 'de'],
  ['Größe', 'de'],
  ['requete', 'fr'],
  ['délai', 'fr'],
];

const rows = [];
for (const [id, text] of Object.entries(NEEDLES)) rows.push({ id, text });
while (rows.length < rowsWanted) rows.push({ id: '', text: rand() < 0.05 ? `${pick(OTHER)} ${pick(FILES)}` : Array.from({ length: 1 + Math.floor(rand() * 3) }, sentence).join(' ') });
// Needles spread through the table, not first.
for (let i = 0; i < Object.keys(NEEDLES).length; i += 1) {
  const j = Math.floor(rand() * rows.length);
  [rows[i], rows[j]] = [rows[j], rows[i]];
}

/** Phrases kept, words FTS5 cannot read as barewords (`cache.ts`, `token-bucket`) quoted. */
const asTyped = (query) =>
  (query.match(/"[^"]*"\*?|\S+/gu) ?? [])
    .map((w) => (/^"/u.test(w) || /^[A-Za-z0-9_\u0080-\uFFFF]+\*?$/u.test(w) ? w : `"${w.replaceAll('"', '""')}"`))
    .join(' ');

/** The scripts B cuts into characters (segment.ts): D cuts them where `Intl.Segmenter` sees words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const MAY_NEED = /[\u0E00-\uFFFF]/;
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const SEP = '\u200B';
const segmentIntl = (text) => {
  if (!MAY_NEED.test(text)) return text;
  let out = '';
  let previousUnspaced = false;
  for (const { segment: piece } of words.segment(text)) {
    const unspaced = UNSPACED.test(piece);
    if (out !== '' && (unspaced || previousUnspaced)) out += SEP;
    out += piece;
    previousUnspaced = unspaced;
  }
  return out;
};
const queryIntl = (query) =>
  (query.match(/"[^"]*"\*?|\S+/gu) ?? []).map((word) => (UNSPACED.test(word) ? `"${segmentIntl(word.replaceAll('"', ''))}"` : prepareQuery(word).match)).join(' AND ');

const VARIANTS = {
  'A unicode61 tokenchars _': {
    create: `CREATE VIRTUAL TABLE m USING fts5(text, tokenize = "unicode61 remove_diacritics 2 tokenchars '_'")`,
    insert: (db) => {
      const s = db.prepare('INSERT INTO m (rowid, text) VALUES (?, ?)');
      return (rowid, text) => s.run(rowid, text);
    },
    query: asTyped,
  },
  'B unicode61 + segmentation': {
    create: `CREATE VIRTUAL TABLE m USING fts5(text, parts, tokenize = "unicode61 remove_diacritics 2")`,
    insert: (db) => {
      const s = db.prepare('INSERT INTO m (rowid, text, parts) VALUES (?, ?, ?)');
      return (rowid, text) => s.run(rowid, segment(text), identifierParts(text));
    },
    query: (q) => prepareQuery(q).match,
  },
  'C trigram': {
    create: `CREATE VIRTUAL TABLE m USING fts5(text, tokenize = "trigram")`,
    insert: (db) => {
      const s = db.prepare('INSERT INTO m (rowid, text) VALUES (?, ?)');
      return (rowid, text) => s.run(rowid, text);
    },
    query: (q) => asTyped(q.replace(/\*$/u, '')),
  },
  'D unicode61 + Intl.Segmenter': {
    create: `CREATE VIRTUAL TABLE m USING fts5(text, parts, tokenize = "unicode61 remove_diacritics 2")`,
    insert: (db) => {
      const s = db.prepare('INSERT INTO m (rowid, text, parts) VALUES (?, ?, ?)');
      return (rowid, text) => s.run(rowid, segmentIntl(text), identifierParts(text));
    },
    prepare: segmentIntl,
    query: queryIntl,
  },
};
VARIANTS['B unicode61 + segmentation'].prepare = segment;
/** The fastest of three passes of `prepare` over every row. */
const prepareMs = (prepare) => {
  if (!prepare) return 0;
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let sink = 0;
    const start = performance.now();
    for (const row of rows) sink += prepare(row.text).length;
    best = Math.min(best, performance.now() - start);
    if (sink < 0) console.log(sink);
  }
  return best;
};

// Timed before the builds, whose garbage would land in these passes.
const segmentMs = Object.fromEntries(Object.entries(VARIANTS).map(([name, variant]) => [name, Math.round(prepareMs(variant.prepare))]));
const partsMs = Math.round(prepareMs(identifierParts));
const dir = mkdtempSync(path.join(os.tmpdir(), 'agentwatch-tokenizers-'));
const results = {};
try {
  for (const [name, variant] of Object.entries(VARIANTS)) {
    // Builds on a shared machine vary: the fastest of three.
    let buildMs = Infinity;
    let db;
    let file;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      db?.close();
      file = path.join(dir, `${name[0]}${attempt}.db`);
      db = new Database(file);
      db.pragma('journal_mode = WAL');
      db.exec(variant.create);
      const insert = variant.insert(db);
      const start = performance.now();
      db.transaction(() => rows.forEach((row, i) => insert(i + 1, row.text)))();
      buildMs = Math.min(buildMs, performance.now() - start);
    }
    db.exec('VACUUM');
    const sizeMiB = statSync(file).size / 1048576;
    const found = [];
    const missed = [];
    const times = [];
    const select = db.prepare('SELECT rowid FROM m WHERE m MATCH ? ORDER BY rank LIMIT 50');
    for (const [query, needle] of QUERIES) {
      let hits = [];
      const t = performance.now();
      for (let i = 0; i < 5; i += 1) {
        try {
          hits = select.all(variant.query(query)).map((r) => r.rowid);
        } catch {
          hits = [];
        }
      }
      times.push((performance.now() - t) / 5);
      const wanted = rows.findIndex((row) => row.id === needle) + 1;
      (hits.includes(wanted) ? found : missed).push(query);
    }
    db.close();
    results[name] = { segmentMs: segmentMs[name], buildMs: Math.round(buildMs), sizeMiB: +sizeMiB.toFixed(2), found: found.length, of: QUERIES.length, missed, queryP50Ms: +percentile(times, 0.5).toFixed(2), queryP95Ms: +percentile(times, 0.95).toFixed(2) };
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(`${rows.length} messages, ${QUERIES.length} queries; camelCase parts (B and D): ${partsMs} ms`);
for (const [name, r] of Object.entries(results)) {
  console.log(`  ${name.padEnd(28)} segment ${String(r.segmentMs).padStart(4)} ms  build ${String(r.buildMs).padStart(5)} ms  ${String(r.sizeMiB).padStart(6)} MiB  query p50 ${r.queryP50Ms} ms p95 ${r.queryP95Ms} ms  found ${r.found}/${r.of}${r.missed.length ? `  missed: ${r.missed.join(' | ')}` : ''}`);
}
const [a, b, c, d] = Object.values(results);
console.log(JSON.stringify({ name: 'search-tokenizers', figures: b, anchors: { unicode61Plain: a, trigram: c, intlSegmenter: d, camelPartsMs: partsMs } }));
