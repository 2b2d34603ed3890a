/**
 * The anchors cold and warm discovery are measured against, each a plain Node script over a list
 * of files (one path a line), timed inside the process (module loading excluded) and printed as
 * one JSON line:
 *
 *   node bench/anchors.mjs stat  <list>   async stat of every file, all in flight (the warm-start floor)
 *   node bench/anchors.mjs skim  <list>   the skim floor: read every byte in 4 MiB chunks, find the
 *                                         lines on the Buffer, JSON.parse only the lines that carry
 *                                         state (type user/assistant/system/summary/custom-title and
 *                                         under 64 KiB); bigger ones are tool outputs: their record
 *                                         type is read from their first bytes, nothing is decoded
 *   node bench/anchors.mjs parse <list>   read-and-parse-everything: readFileSync + JSON.parse of every line
 *   node bench/anchors.mjs restore <list> <discovery.sqlite>
 *                                         the least a warm start restoring from a per-file cache does:
 *                                         a synchronous stat of every file, one SELECT of every row of
 *                                         agentwatch's discovery cache, JSON.parse of each stored core,
 *                                         a Map from path to it, and the rows whose file is unchanged
 *                                         counted; no directory listing, no fold, no activity
 */
import { Buffer } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

const [mode, listFile] = process.argv.slice(2);
const files = readFileSync(listFile, 'utf8').split('\n').filter(Boolean);

const statAll = async () => {
  const sizes = await Promise.all(files.map((file) => stat(file).then((s) => s.size)));
  return { files: sizes.length, bytes: sizes.reduce((a, b) => a + b, 0) };
};

const STATE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'custom-title']);
const TYPE_KEY = Buffer.from('"type":"');
const BIG_LINE = 64 * 1024;
const CHUNK = 4 * 1024 * 1024;

const skimAll = () => {
  let lines = 0;
  let parsed = 0;
  let bytes = 0;
  const buffer = Buffer.allocUnsafe(CHUNK);
  const onLine = (line) => {
    lines += 1;
    const at = line.indexOf(TYPE_KEY);
    if (at === -1 || at > 4096) return;
    const start = at + TYPE_KEY.length;
    const type = line.toString('latin1', start, line.indexOf(0x22, start));
    if (!STATE_TYPES.has(type) || line.length > BIG_LINE) return;
    try {
      JSON.parse(line.toString('utf8'));
      parsed += 1;
    } catch {
      // junk lines count as looked at
    }
  };
  for (const file of files) {
    const fd = openSync(file, 'r');
    let pending = [];
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      bytes += read;
      let from = 0;
      for (let nl = buffer.indexOf(0x0a, from); nl !== -1 && nl < read; nl = buffer.indexOf(0x0a, from)) {
        const piece = buffer.subarray(from, nl);
        if (pending.length > 0) {
          onLine(Buffer.concat([...pending, piece]));
          pending = [];
        } else onLine(piece);
        from = nl + 1;
      }
      if (from < read) pending.push(Buffer.from(buffer.subarray(from, read)));
    }
    closeSync(fd);
  }
  return { files: files.length, bytes, lines, parsed };
};

const parseAll = () => {
  let lines = 0;
  let bad = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      lines += 1;
      try {
        JSON.parse(line);
      } catch {
        bad += 1;
      }
    }
  }
  return { files: files.length, lines, bad };
};

const restoreAll = async () => {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(process.argv[4], { readonly: true, fileMustExist: true });
  const started = performance.now();
  const stats = files.map((file) => statSync(file, { throwIfNoEntry: false }));
  const rows = new Map();
  for (const [file, size, mtimeMs, core] of db.prepare('SELECT path, size, mtime_ms, state FROM files').raw().iterate()) rows.set(file, { size, mtimeMs, core: JSON.parse(core) });
  let unchanged = 0;
  files.forEach((file, i) => {
    const row = rows.get(file);
    if (row !== undefined && row.size === stats[i]?.size && row.mtimeMs === stats[i]?.mtimeMs) unchanged += 1;
  });
  // Opening the database is outside the clock, as module loading is for the others.
  restoreStarted = started;
  return { files: files.length, rows: rows.size, unchanged };
};
let restoreStarted;

const modes = { stat: statAll, skim: skimAll, parse: parseAll, restore: restoreAll };
if (!(mode in modes)) throw new Error(`usage: node bench/anchors.mjs ${Object.keys(modes).join('|')} <list>`);
const cpuStarted = process.cpuUsage();
const started = performance.now();
const facts = await modes[mode]();
const ms = performance.now() - (restoreStarted ?? started);
const cpu = process.cpuUsage(cpuStarted);
process.stdout.write(`${JSON.stringify({ mode, ms, cpuMs: (cpu.user + cpu.system) / 1000, ...facts })}\n`);
