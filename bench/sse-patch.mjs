/**
 * Append -> SSE latency: a running `agentwatch --api` on a generated corpus with a
 * 7-day window; one line appended to a transcript at a time, and the time until the
 * `?format=patch` stream delivers the `patch` carrying that session, against the same for the
 * lazyagent `update` stream (a full snapshot per change), measured in the same run.
 *
 *   node bench/sse-patch.mjs [--sessions N] [--appends A]
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { pbkdf2Sync } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { EventSource } from 'eventsource';
import { ensureRecentCorpus } from './corpus.mjs';
import { arg, percentile, saveResult, sleep } from './util.mjs';
import { homeEnv } from './corpus-agents.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sessions = arg('sessions', 3000);
const appends = arg('appends', 200);
const root = path.join(here, '.corpus-idle');
const corpus = ensureRecentCorpus({ root, sessions, meanKb: 20 });
const env = { ...homeEnv(corpus.home, path.join(root, 'xdg-cache-sse')), AGENTWATCH_API_PASSPHRASE: 'sse benchmark passphrase' };
const salt = 'sse-bench-salt';
mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), JSON.stringify({ window_minutes: 10080, api_salt: salt }));
const token = pbkdf2Sync(env.AGENTWATCH_API_PASSPHRASE, salt, 600000, 32, 'sha256').toString('base64url');

const child = spawn(process.execPath, [path.join(here, '..', 'dist', 'cli.js'), '--api', '--host', '127.0.0.1:0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));
try {
  let base;
  while (!(base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1])) await sleep(50);
  for (;;) {
    const stats = await fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()).catch(() => ({}));
    if (stats.ready) break;
    await sleep(100);
  }
  const projects = path.join(corpus.home, '.claude', 'projects');
  const project = readdirSync(projects)[0];
  const file = readdirSync(path.join(projects, project)).find((name) => name.endsWith('.jsonl'));
  const transcript = path.join(projects, project, file);
  const sessionId = file.replace(/\.jsonl$/, '');
  const streams = {};
  const waiting = new Map();
  for (const format of ['patch', 'update']) {
    const source = new EventSource(`${base}/api/events?token=${token}${format === 'patch' ? '&format=patch' : ''}`);
    streams[format] = { source, latencies: [], bytes: [] };
    source.addEventListener(format, (event) => {
      const data = JSON.parse(event.data);
      const list = format === 'patch' ? data.changed : data.sessions;
      const seq = list.find((s) => s.session_id === sessionId)?.total_messages;
      const key = `${format}:${seq}`;
      const started = waiting.get(key);
      if (started !== undefined) {
        waiting.delete(key);
        streams[format].latencies.push(performance.now() - started);
        streams[format].bytes.push(event.data.length);
      }
    });
  }
  await sleep(1_000);
  let count = 0;
  const probe = await fetch(`${base}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
  count = probe.total_messages;
  for (let i = 0; i < appends; i += 1) {
    count += 1;
    const at = performance.now();
    waiting.set(`patch:${count}`, at);
    waiting.set(`update:${count}`, at);
    appendFileSync(transcript, `${JSON.stringify({ type: 'user', cwd: probe.cwd, message: { role: 'user', content: `append ${i}` }, timestamp: new Date().toISOString() })}\n`);
    const deadline = Date.now() + 5_000;
    while ((waiting.has(`patch:${count}`) || waiting.has(`update:${count}`)) && Date.now() < deadline) await sleep(2);
    // Beyond the SSE throttle (250 ms), so every append is its own frame.
    await sleep(300);
  }
  const summary = (format) => ({
    p50: Math.round(percentile(streams[format].latencies, 0.5)),
    p95: Math.round(percentile(streams[format].latencies, 0.95)),
    p99: Math.round(percentile(streams[format].latencies, 0.99)),
    frameKiB: +(percentile(streams[format].bytes, 0.5) / 1024).toFixed(1),
    seen: streams[format].latencies.length,
  });
  const patch = summary('patch');
  const update = summary('update');
  console.log(`append -> SSE, ${appends} appends, 7-day window`);
  console.log(`  patch  p50 ${patch.p50} ms  p95 ${patch.p95} ms  p99 ${patch.p99} ms  frame ${patch.frameKiB} KiB  (${patch.seen} seen)`);
  console.log(`  update p50 ${update.p50} ms  p95 ${update.p95} ms  p99 ${update.p99} ms  frame ${update.frameKiB} KiB  (${update.seen} seen)`);
  console.log(`  saved to ${saveResult('sse-patch', { figures: { ...patch, appends, files: corpus.files }, anchors: { update } })}`);
  console.log(JSON.stringify({ name: 'sse-patch', figures: patch, anchors: { update } }));
  for (const { source } of Object.values(streams)) source.close();
} finally {
  child.kill('SIGTERM');
}
