/**
 * The floor of listing a window: a synchronous stat of every file of a list (one path a line),
 * then reading the files written since `sinceMs` and parsing every line of them. No directory
 * walk, no fold, no listing: the least any tool showing the window's sessions must do. Prints one
 * JSON line: { ms, files, recent, bytes } (ms in process; the caller times the wall).
 *
 *   node bench/window-floor.mjs <list> <sinceMs>
 */
import { readFileSync, statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const [listFile, since] = process.argv.slice(2);
const sinceMs = Number(since);
const files = readFileSync(listFile, 'utf8').split('\n').filter(Boolean);

const started = performance.now();
const recent = [];
for (const file of files) {
  const info = statSync(file, { throwIfNoEntry: false });
  if (info && info.mtimeMs >= sinceMs) recent.push(file);
}
let bytes = 0;
let lines = 0;
for (const file of recent) {
  const text = readFileSync(file, 'utf8');
  bytes += text.length;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      JSON.parse(line);
      lines += 1;
    } catch {
      // a junk or half-written line counts as looked at
    }
  }
}
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, files: files.length, recent: recent.length, bytes, lines })}\n`);
