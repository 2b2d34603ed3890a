#!/usr/bin/env node
/**
 * Runs the named npm scripts side by side and fails when any of them fails: `npm test` checks
 * types and lint at the same time on a two-core machine. Each script's output is held and printed
 * whole when it ends, so two logs never interleave line by line.
 *
 *   node scripts/run-parallel.mjs typecheck lint
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  process.stderr.write('usage: node scripts/run-parallel.mjs <npm script> [<npm script> ...]\n');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const run = (name) =>
  new Promise((resolve) => {
    const chunks = [];
    // Windows runs npm.cmd only through a shell.
    const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env, shell: process.platform === 'win32' });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: `${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
  });

const results = await Promise.all(names.map(run));
for (const { name, code, output } of results) {
  process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${output}`);
  if (output !== '' && !output.endsWith('\n')) process.stdout.write('\n');
}
process.exitCode = results.some(({ code }) => code !== 0) ? 1 : 0;
