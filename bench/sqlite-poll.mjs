// CPU cost of the SQLite sources' poll, measured on the built code (npm run build first).
//  1. baseline: one `SELECT 1` on an open connection;
//  2. a poll with nothing changed (stat + PRAGMA data_version on the kept-open connection),
//     for a large opencode database and a large, mostly old, Cursor state.vscdb;
//  3. a poll after one commit (listing + replay of the one changed session);
//  4. the first pass over each database (delivered in budgeted batches) and its longest poll.
// Usage: node bench/sqlite-poll.mjs [polls]
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { URL } from 'node:url';
import Database from 'better-sqlite3';
import { createSqlitePoller } from '../dist/sources/sqlite/poller.js';
import { openFamilyReader } from '../dist/sources/sqlite/opencode-family/reader.js';
import { openCursorReader } from '../dist/sources/cursor/reader.js';

const N = Number(process.argv[2] ?? 20_000);
const CHANGED = 200;
const NOW = Date.UTC(2026, 2, 10, 12);
const dir = mkdtempSync(path.join(tmpdir(), 'aw-bench-sqlite-'));
const fixtures = new URL('../fixtures/', import.meta.url);

/** CPU microseconds (user + system) per call of `fn`, over `n` calls. */
const cpuPerCall = (n, fn) => {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) fn(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
};

const report = (label, micros) => console.log(`${label.padEnd(58)} ${micros.toFixed(2).padStart(9)} µs CPU`);

// --- opencode: 400 sessions x 30 messages x 3 parts (36k parts), WAL, recent and old sessions.
const opencodeFile = path.join(dir, 'opencode.db');
const writer = new Database(opencodeFile);
writer.pragma('journal_mode = WAL');
writer.exec(readFileSync(new URL('opencode/schema.sql', fixtures), 'utf8'));
writer.exec(`INSERT INTO project VALUES ('p', '/w', 'git', 'w', 0, 0)`);
const insertSession = writer.prepare(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'p', ?, '/w', ?, '1.0.0', ?, ?)`);
const insertMessage = writer.prepare(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`);
const insertPart = writer.prepare(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`);
writer.transaction(() => {
  for (let s = 0; s < 400; s++) {
    const base = s < 40 ? NOW - 3_600_000 : NOW - 30 * 86_400_000 - s * 60_000;
    insertSession.run(`ses_${s}`, `slug-${s}`, `Session ${s}`, base, base + 30 * 10_000);
    for (let m = 0; m < 30; m++) {
      const at = base + m * 10_000;
      const role = m % 2 === 0 ? 'user' : 'assistant';
      const data = role === 'user' ? { role, time: { created: at } } : { role, modelID: 'claude-sonnet-4-5', cost: 0.01, tokens: { input: 1000, output: 100, reasoning: 0, cache: { read: 5000, write: 0 } }, time: { created: at, completed: at + 5000 }, finish: 'stop' };
      insertMessage.run(`msg_${s}_${m}`, `ses_${s}`, at, at, JSON.stringify(data));
      insertPart.run(`prt_${s}_${m}_a`, `msg_${s}_${m}`, `ses_${s}`, at, at, JSON.stringify({ type: 'text', text: `message ${m} of session ${s} `.repeat(8) }));
      insertPart.run(`prt_${s}_${m}_b`, `msg_${s}_${m}`, `ses_${s}`, at + 1, at + 1, JSON.stringify({ type: 'tool', tool: 'read', callID: `c${m}`, state: { status: 'completed', input: { filePath: '/w/a.ts' }, time: { start: at + 1, end: at + 2 } } }));
      insertPart.run(`prt_${s}_${m}_c`, `msg_${s}_${m}`, `ses_${s}`, at + 3, at + 3, JSON.stringify({ type: 'step-finish' }));
    }
  }
})();

// --- cursor: 3000 composers, 30 of them in the last 48 h, 20 bubbles each.
const cursorFile = path.join(dir, 'state.vscdb');
const cursorWriter = new Database(cursorFile);
cursorWriter.pragma('journal_mode = WAL');
cursorWriter.exec(readFileSync(new URL('cursor/schema.sql', fixtures), 'utf8'));
const put = cursorWriter.prepare(`INSERT INTO cursorDiskKV VALUES (?, ?)`);
cursorWriter.transaction(() => {
  for (let c = 0; c < 3000; c++) {
    const id = `composer-${String(c).padStart(5, '0')}`;
    const updated = c < 30 ? NOW - 3_600_000 : NOW - 10 * 86_400_000 - c * 3_600_000;
    const headers = Array.from({ length: 20 }, (_, b) => ({ bubbleId: `b${b}`, type: b % 2 === 0 ? 1 : 2 }));
    put.run(`composerData:${id}`, JSON.stringify({ composerId: id, name: `Chat ${c}`, createdAt: updated - 60_000, lastUpdatedAt: updated, status: 'completed', fullConversationHeadersOnly: headers, context: { notes: 'x'.repeat(2000) } }));
    for (let b = 0; b < 20; b++) {
      put.run(`bubbleId:${id}:b${b}`, JSON.stringify({ bubbleId: `b${b}`, type: b % 2 === 0 ? 1 : 2, text: `bubble ${b} `.repeat(20), createdAt: new Date(updated - (20 - b) * 1000).toISOString(), tokenCount: { inputTokens: 100, outputTokens: 10 } }));
    }
  }
})();

const baselineDb = new Database(opencodeFile, { readonly: true, fileMustExist: true });
const selectOne = baselineDb.prepare('SELECT 1');
report('baseline: SELECT 1 on an open connection', cpuPerCall(N, () => selectOne.get()));
const dataVersion = baselineDb.prepare('PRAGMA data_version').pluck();
report('  part of a poll: PRAGMA data_version (prepared)', cpuPerCall(N, () => dataVersion.get()));
report('  part of a poll: stat of the database file', cpuPerCall(N, () => statSync(opencodeFile, { throwIfNoEntry: false })));
baselineDb.close();

const opencode = createSqlitePoller({ agent: 'opencode', dbPath: opencodeFile, openReader: openFamilyReader({ agent: 'opencode', resumeCommand: (id) => id }) });
/** The first pass, polled back to back as the source does: total CPU and the longest single poll. */
const firstPass = (poller) => {
  let events = 0;
  let polls = 0;
  let longest = 0;
  const start = process.cpuUsage();
  do {
    const before = process.cpuUsage();
    events += poller.poll(NOW).length;
    const used = process.cpuUsage(before);
    longest = Math.max(longest, used.user + used.system);
    polls += 1;
  } while (poller.hasMore());
  const total = process.cpuUsage(start);
  return { events, polls, total: total.user + total.system, longest };
};
const opencodePass = firstPass(opencode);
const firstEvents = opencodePass.events;
report(`opencode: first pass, 400 sessions, 36k parts (${opencodePass.polls} polls)`, opencodePass.total);
report('opencode: longest single poll of that pass', opencodePass.longest);
report('opencode: poll, nothing changed', cpuPerCall(N, () => opencode.poll(NOW)));
const touch = writer.prepare(`UPDATE part SET time_updated = time_updated + 1 WHERE id = ?`);
let replayed = 0;
let changedCpu = 0;
for (let i = 0; i < CHANGED; i++) {
  touch.run(`prt_${i % 40}_29_a`);
  changedCpu += cpuPerCall(1, () => (replayed += opencode.poll(NOW).filter((e) => e.type === 'reset').length));
}
report('opencode: poll after one part update (list + 1 replay)', changedCpu / CHANGED);
opencode.close();

const cursor = createSqlitePoller({ agent: 'cursor', dbPath: cursorFile, openReader: openCursorReader });
const cursorPass = firstPass(cursor);
report(`cursor: first pass, 3000 composers, 30 within 48 h (${cursorPass.polls} polls)`, cursorPass.total);
report('cursor: poll, nothing changed', cpuPerCall(N, () => cursor.poll(NOW)));
const ui = cursorWriter.prepare(`INSERT INTO ItemTable VALUES ('ui.state', ?)`);
report('cursor: poll after an unrelated ItemTable write (re-list)', cpuPerCall(CHANGED, (i) => (ui.run(String(i)), cursor.poll(NOW))));
cursor.close();

console.log(`\n${N} unchanged polls each; first opencode poll emitted ${firstEvents} events; ${replayed}/${CHANGED} changed polls replayed one session.`);
console.log('(the ItemTable figure includes the write itself)');
writer.close();
cursorWriter.close();
rmSync(dir, { recursive: true, force: true });
