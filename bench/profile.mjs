// Summarises a V8 CPU profile: self time by function and by file (node_modules packages and
// dist/ files grouped), largest first. Profile a run with, e.g.:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof dist/cli.js sessions --all --json > /dev/null
//   node bench/profile.mjs /tmp/prof [rows]
// (a directory means its newest .cpuprofile). Run it with HOME/XDG_* pointing at a corpus, never the real home.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const target = process.argv[2];
const rows = Number(process.argv[3] ?? 30);
if (!target) throw new Error('usage: node bench/profile.mjs <profile.cpuprofile | directory> [rows]');
const file = statSync(target).isDirectory()
  ? path.join(target, readdirSync(target).filter((name) => name.endsWith('.cpuprofile')).sort().at(-1) ?? '')
  : target;
const profile = JSON.parse(readFileSync(file, 'utf8'));

/** node_modules/<pkg> or dist/<file>, so library and own code read apart. */
const shortUrl = (url) => url.replace(/.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*/, 'nm:$1').replace(/.*\/dist\//, 'dist/');

const selfMs = new Map();
for (let i = 0; i < profile.samples.length; i += 1) {
  selfMs.set(profile.samples[i], (selfMs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const byFunction = new Map();
const byFile = new Map();
let total = 0;
for (const node of profile.nodes) {
  const ms = selfMs.get(node.id) ?? 0;
  if (ms === 0) continue;
  total += ms;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = shortUrl(url) || '(native or eval)';
  const fn = `${functionName || '(anonymous)'} ${url ? `${url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${lineNumber + 1}` : ''}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
  byFile.set(functionName.startsWith('(') ? functionName : where, (byFile.get(functionName.startsWith('(') ? functionName : where) ?? 0) + ms);
}
const top = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, rows).map(([name, ms]) => `${ms.toFixed(1).padStart(9)} ms  ${(100 * ms / total).toFixed(1).padStart(5)}%  ${name}`);
process.stdout.write([`${file}: ${total.toFixed(0)} ms sampled`, '', 'self time by function:', ...top(byFunction), '', 'self time by file:', ...top(byFile), ''].join('\n'));
