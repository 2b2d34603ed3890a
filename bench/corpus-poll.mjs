// CPU time of one SQLite poll with nothing changed, on the bench corpus's own databases (opencode,
// kilo, Cursor), measured on the built code. The file agents are told of changes by directory
// watches instead (plus a re-stat of files written in the last 2 minutes; amp re-stats its threads every 3 s).
// Baseline: `SELECT 1` on an open connection. Prints one JSON line per database.
// Usage: node bench/corpus-poll.mjs <dbs.txt> [polls]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openCursorReader } from '../dist/sources/cursor/reader.js';
import { openFamilyReader } from '../dist/sources/sqlite/opencode-family/reader.js';
import { createSqlitePoller } from '../dist/sources/sqlite/poller.js';

const dbs = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
const polls = Number(process.argv[3] ?? 5_000);

/** CPU microseconds (user + system) per call of `fn`, over `n` calls. */
const cpuPerCall = (n, fn) => {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i += 1) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
};

const readerFor = (file) => {
  const name = path.basename(file);
  if (name === 'state.vscdb') return { agent: 'cursor', openReader: openCursorReader };
  const agent = name === 'kilo.db' ? 'kilo' : 'opencode';
  return { agent, openReader: openFamilyReader({ agent, resumeCommand: (id) => id }) };
};

for (const file of dbs) {
  const { agent, openReader } = readerFor(file);
  const plain = new Database(file, { readonly: true, fileMustExist: true });
  const one = plain.prepare('SELECT 1');
  const baselineUs = cpuPerCall(polls, () => one.get());
  plain.close();
  const poller = createSqlitePoller({ agent, dbPath: file, openReader });
  const now = Date.now();
  let events = 0;
  do events += poller.poll(now).length;
  while (poller.hasMore());
  const unchangedUs = cpuPerCall(polls, () => poller.poll(now));
  poller.close();
  process.stdout.write(`${JSON.stringify({ agent, events, polls, unchangedUs, baselineUs })}\n`);
}
