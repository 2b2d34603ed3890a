// `agentwatch limits` cost, measured on the built code (npm run build first):
//  1. the command as a process: no logins at all (start-up + credential lookups), all five
//     agents answering at once, and all five answering after 1 s (concurrency: ~1 s, not ~5 s);
//  2. the pure renderers (table, detailed, JSON) on the five fixture answers.
// Usage: node bench/limits.mjs [process runs] [render iterations]
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { URL } from 'node:url';
import Database from 'better-sqlite3';
import { firstValueFrom } from 'rxjs';
import { fetchLimits } from '../dist/limits/fetch-limits.js';
import { makeLimitsCtx } from '../dist/limits/command.js';
import { renderDetailed } from '../dist/limits/render-detailed.js';
import { limitsJson } from '../dist/limits/render-json.js';
import { renderTable } from '../dist/limits/render-table.js';
import { agentLimits } from '../dist/sources/agents.js';

const RUNS = Number(process.argv[2] ?? 7);
const ITERATIONS = Number(process.argv[3] ?? 2_000);
const root = new URL('../', import.meta.url);
const fixture = (name) => readFileSync(new URL(`fixtures/limits/${name}`, root), 'utf8');
const ROUTES = {
  '/api/oauth/usage': 'claude/usage.json',
  '/backend-api/wham/usage': 'codex/usage.json',
  '/v1/billing': 'grok/billing-unified.json',
  '/coding/v1/usages': 'kimi/usages.json',
  '/api/usage-summary': 'cursor/usage-summary.json',
};

let delayMs = 0;
const server = createServer((req, res) => {
  const file = ROUTES[new URL(req.url, 'http://x').pathname];
  setTimeout(() => res.writeHead(file ? 200 : 404, { 'content-type': 'application/json' }).end(file ? fixture(file) : ''), delayMs);
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const base = `http://127.0.0.1:${server.address().port}`;

const home = mkdtempSync(path.join(os.tmpdir(), 'agentwatch-bench-limits-'));
const dbDir = path.join(home, '.config', 'Cursor', 'User', 'globalStorage');
mkdirSync(dbDir, { recursive: true });
const db = new Database(path.join(dbDir, 'state.vscdb'));
db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE, value BLOB)');
db.prepare('INSERT INTO ItemTable VALUES (?, ?)').run('cursorAuth/accessToken', Buffer.from(JSON.parse(fixture('cursor/itemtable.json'))['cursorAuth/accessToken']));
db.close();

const clean = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), PATH: process.env.PATH, TZ: 'UTC' };
const loggedIn = {
  ...clean,
  CLAUDE_CODE_OAUTH_TOKEN: 'bench-claude',
  CODEX_OAUTH_TOKEN: 'bench-codex',
  GROK_OAUTH_TOKEN: 'bench-grok',
  KIMI_CODE_OAUTH_TOKEN: 'bench-kimi',
  AGENTWATCH_CLAUDE_API_URL: base,
  AGENTWATCH_CODEX_API_URL: base,
  AGENTWATCH_GROK_API_URL: base,
  AGENTWATCH_KIMI_API_URL: base,
  AGENTWATCH_CURSOR_WEB_URL: base,
};

const cli = new URL('dist/cli.js', root).pathname;
const runOnce = (env) =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'limits'], { env, stdio: 'ignore' });
    child.on('close', (code) => resolve({ code, ms: performance.now() - started }));
  });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const measure = async (label, env, delay, expectCode) => {
  delayMs = delay;
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const { code, ms } = await runOnce(env);
    if (code !== expectCode) throw new Error(`${label}: exit ${code}, expected ${expectCode}`);
    times.push(ms);
  }
  console.log(`${label.padEnd(42)} median ${median(times).toFixed(0).padStart(5)} ms  (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}, ${RUNS} runs)`);
};

console.log(`node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
await measure('process, no logins (exit 1)', clean, 0, 1);
await measure('process, five agents, immediate answers', loggedIn, 0, 0);
await measure('process, five agents, 1 s answers', loggedIn, 1_000, 0);

delayMs = 0;
const outcomes = await firstValueFrom(
  fetchLimits(makeLimitsCtx({ env: loggedIn, platform: 'linux', version: 'bench' }), ['claude', 'codex', 'grok', 'kimi', 'cursor'], agentLimits),
);
const now = Date.parse('2026-09-10T14:00:00Z');
for (const [label, render] of [
  ['renderTable', () => renderTable(outcomes, { color: true, now, width: 100, tz: 'UTC' })],
  ['renderDetailed', () => renderDetailed(outcomes, { color: true, now, width: 100, tz: 'UTC' })],
  ['limitsJson + stringify', () => JSON.stringify(limitsJson(outcomes, now))],
]) {
  render();
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i += 1) render();
  console.log(`${label.padEnd(42)} ${(((performance.now() - started) / ITERATIONS) * 1000).toFixed(1).padStart(7)} µs per render`);
}

server.close();
rmSync(home, { recursive: true, force: true });
