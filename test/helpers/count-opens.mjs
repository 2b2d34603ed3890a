// Preloaded into a spawned CLI (NODE_OPTIONS=--import=...): counts the transcript files it opens
// for reading and writes the count to $AGENTWATCH_TEST_OPENS_FILE on exit. Tests use it to prove
// that a command read nothing it had read before.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const out = process.env.AGENTWATCH_TEST_OPENS_FILE;
const opened = [];
const original = fs.openSync;
fs.openSync = function (file, ...rest) {
  if (typeof file === 'string' && /\.(jsonl|json)$/.test(file) && !file.includes('/agentwatch/')) opened.push(file);
  return original.call(this, file, ...rest);
};
syncBuiltinESMExports();
process.on('exit', () => {
  if (out) fs.writeFileSync(out, JSON.stringify(opened));
});
