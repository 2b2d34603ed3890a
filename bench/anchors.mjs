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
 */
import { Buffer } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
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

const modes = { stat: statAll, skim: skimAll, parse: parseAll };
if (!(mode in modes)) throw new Error(`usage: node bench/anchors.mjs ${Object.keys(modes).join('|')} <list>`);
const cpuStarted = process.cpuUsage();
const started = performance.now();
const facts = await modes[mode]();
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
process.stdout.write(`${JSON.stringify({ mode, ms, cpuMs: (cpu.user + cpu.system) / 1000, ...facts })}\n`);
