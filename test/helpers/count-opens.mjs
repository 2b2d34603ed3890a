// Preloaded into a spawned CLI (NODE_OPTIONS=--import=...): records the transcript files it opens
// for reading (fs.openSync) and the agent databases it opens (better-sqlite3, through
// count-opens-sqlite.mjs), and writes the list to $AGENTWATCH_TEST_OPENS_FILE on exit. Tests use it
// to prove that a command read nothing it had read before. agentwatch's own files (under an
// `agentwatch` directory) are not counted.
import fs from 'node:fs';
import { createRequire, register, syncBuiltinESMExports } from 'node:module';

const out = process.env.AGENTWATCH_TEST_OPENS_FILE;
const opened = [];
globalThis.agentwatchTestOpened = opened;
const ours = (file) => file.includes('/agentwatch/');
const original = fs.openSync;
fs.openSync = function (file, ...rest) {
  if (typeof file === 'string' && /\.(jsonl|json)$/.test(file) && !ours(file)) opened.push(file);
  return original.call(this, file, ...rest);
};
syncBuiltinESMExports();

// `import Database from 'better-sqlite3'` resolves to a counting wrapper...
register('./count-opens-hooks.mjs', import.meta.url);
// ...and so does `require('better-sqlite3')` (the SQLite sources load it lazily that way).
const require = createRequire(import.meta.url);
const id = require.resolve('better-sqlite3');
const { default: Counting } = await import('./count-opens-sqlite.mjs');
require(id);
require.cache[id].exports = Counting;

process.on('exit', () => {
  if (out) fs.writeFileSync(out, JSON.stringify(opened));
});
