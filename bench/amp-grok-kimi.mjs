// Cold and warm discovery of the amp, grok and kimi sources on a generated corpus, measured on the
// built code (npm run build first). For each agent: N sessions, each a realistic mix of prompts,
// tool calls, results and answers. Reports wall time, CPU time, events and MB/s for
//  1. a cold one-shot scan (watch: false, no cache): every file read and parsed;
//  2. a warm one-shot scan from a discovery cache holding every session at its checkpoint;
//  3. watch mode: time to `ready` and RSS added (run with --expose-gc for steadier numbers).
// Usage: node bench/amp-grok-kimi.mjs [sessions-per-agent] [turns-per-session]
import { Buffer } from 'node:buffer';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { asyncScheduler, lastValueFrom, toArray } from 'rxjs';
import { toEffective } from '../dist/config/effective.js';
import { configSchema } from '../dist/config/schema.js';
import { amp } from '../dist/sources/amp/index.js';
import { grok } from '../dist/sources/grok/index.js';
import { kimi } from '../dist/sources/kimi/index.js';
import { openDiscoveryCache } from '../dist/sources/internal/cache.js';
import { reduceSession } from '../dist/streams/reduce-session.js';

const SESSIONS = Number(process.argv[2] ?? 300);
const TURNS = Number(process.argv[3] ?? 60);
const T0 = Date.UTC(2026, 2, 10, 9);
const root = mkdtempSync(path.join(tmpdir(), 'aw-bench-agents3-'));
const home = path.join(root, 'home');
const env = { HOME: home, XDG_DATA_HOME: path.join(home, '.local/share'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_CONFIG_HOME: path.join(home, '.config'), PATH: '' };
const filler = 'The function reads the config, validates it and retries on a transient failure. '.repeat(3);
let bytes = { amp: 0, grok: 0, kimi: 0 };

const write = (agent, file, text) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  bytes[agent] += Buffer.byteLength(text);
};

for (let s = 0; s < SESSIONS; s++) {
  // amp: one JSON document per thread.
  const messages = [];
  for (let t = 0; t < TURNS; t++) {
    const at = T0 + s * 1000 + t * 10;
    messages.push({ role: 'user', messageId: 4 * t, content: [{ type: 'text', text: `step ${t}: ${filler}` }], meta: { sentAt: at } });
    messages.push({ role: 'assistant', messageId: 4 * t + 1, content: [{ type: 'tool_use', id: `u${t}`, name: 'edit_file', input: { path: `file:///w/s${s}/f${t}.ts`, old_str: filler, new_str: filler } }], state: { type: 'complete', stopReason: 'tool_use' }, usage: { model: 'claude-sonnet-4-5', inputTokens: 100, outputTokens: 50, cacheCreationInputTokens: 0, cacheReadInputTokens: 1000, timestamp: new Date(at + 1).toISOString() } });
    messages.push({ role: 'user', messageId: 4 * t + 2, content: [{ type: 'tool_result', toolUseID: `u${t}`, run: { status: 'done', result: filler } }], meta: { sentAt: at + 2 } });
    messages.push({ role: 'assistant', messageId: 4 * t + 3, content: [{ type: 'text', text: filler }], state: { type: 'complete', stopReason: 'end_turn' }, meta: { sentAt: at + 3 } });
  }
  write('amp', path.join(env.XDG_DATA_HOME, 'amp/threads', `T-bench-${s}.json`), JSON.stringify({ id: `T-bench-${s}`, created: T0, title: `thread ${s}`, messages, env: { initial: { trees: [{ uri: `file:///w/s${s}` }] } } }));

  // grok: summary.json + chat_history.jsonl.
  const gdir = path.join(home, '.grok/sessions', encodeURIComponent(`/w/g${s % 20}`), `g-${s}`);
  write('grok', path.join(gdir, 'summary.json'), JSON.stringify({ info: { id: `g-${s}`, cwd: `/w/g${s % 20}` }, generated_title: `grok ${s}`, last_active_at: new Date(T0 + s).toISOString(), chat_format_version: 1 }));
  const glines = [JSON.stringify({ type: 'system', content: filler })];
  for (let t = 0; t < TURNS; t++) {
    glines.push(JSON.stringify({ type: 'user', content: [{ type: 'text', text: `<user_query>${filler}</user_query>` }] }));
    glines.push(JSON.stringify({ type: 'assistant', content: '', tool_calls: [{ id: `c${t}`, name: 'bash', arguments: JSON.stringify({ command: 'make test' }) }], reasoning: { text: filler, encrypted: 'x'.repeat(400), id: 'r' } }));
    glines.push(JSON.stringify({ type: 'tool_result', content: filler, tool_call_id: `c${t}` }));
    glines.push(JSON.stringify({ type: 'assistant', content: filler }));
  }
  write('grok', path.join(gdir, 'chat_history.jsonl'), glines.join('\n') + '\n');

  // kimi: native wire.jsonl + state.json.
  const kdir = path.join(home, '.kimi-code/sessions', `wd_w${s % 20}_abc`, `ses_${s}`);
  write('kimi', path.join(kdir, 'state.json'), JSON.stringify({ title: `kimi ${s}` }));
  const klines = [JSON.stringify({ type: 'metadata', protocol_version: '1.3', created_at: T0, app_version: '0.11.0' })];
  for (let t = 0; t < TURNS; t++) {
    const at = T0 + t * 10;
    klines.push(JSON.stringify({ type: 'turn.prompt', input: [{ type: 'text', text: filler }], time: at }));
    klines.push(JSON.stringify({ type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text: filler }] } }));
    klines.push(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: `t${t}`, name: 'Write', args: { file_path: `f${t}.ts`, content: filler } }, time: at + 1 }));
    klines.push(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'tool.result', toolCallId: `t${t}`, result: { output: filler } }, time: at + 2 }));
    klines.push(JSON.stringify({ type: 'usage.record', usage: { inputOther: 100, output: 50, inputCacheRead: 1000, inputCacheCreation: 0 }, time: at + 3 }));
    klines.push(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'content.part', part: { type: 'text', text: filler } }, time: at + 4 }));
    klines.push(JSON.stringify({ type: 'turn.end', time: at + 5 }));
  }
  write('kimi', path.join(kdir, 'agents/main/wire.jsonl'), klines.join('\n') + '\n');
}

const ctx = (extra = {}) => ({
  config: toEffective(configSchema.parse({}), env).config,
  env,
  scheduler: asyncScheduler,
  now: () => Date.now(),
  log: { info() {}, warn() {}, error() {} },
  platform: 'linux',
  watch: false,
  ...extra,
});

const measure = async (source, extra) => {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const events = await lastValueFrom(source(ctx(extra)).pipe(toArray()));
  const used = process.cpuUsage(cpu);
  return { events, ms: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
};

const fold = (events) => {
  const states = new Map();
  for (const e of events) {
    if (e.type === 'ready' || e.type === 'diagnostic') continue;
    const next = reduceSession(states.get(e.sessionId), e);
    if (next) states.set(e.sessionId, next);
    else states.delete(e.sessionId);
  }
  return states;
};

console.log(`${SESSIONS} sessions per agent, ${TURNS} turns each; Node ${process.version}`);
for (const [name, source] of [['amp', amp], ['grok', grok], ['kimi', kimi]]) {
  const mb = bytes[name] / 1e6;
  const cold = await measure(source);
  const states = fold(cold.events);
  const cache = openDiscoveryCache(env, undefined, path.join(root, `${name}.sqlite`));
  cache.write([...states.values()].filter((s) => s.checkpoint).map((s) => ({ path: s.checkpoint.path, agent: s.agent, sessionId: s.sessionId, offset: s.checkpoint.offset, size: s.checkpoint.size, mtimeMs: s.checkpoint.mtimeMs, state: s })), []);
  const warm = await measure(source, { cache });
  cache.close();
  const restored = warm.events.filter((e) => e.type === 'restore').length;
  console.log(
    `${name.padEnd(5)} ${mb.toFixed(1).padStart(6)} MB  cold ${cold.ms.toFixed(0).padStart(6)} ms wall ${cold.cpuMs.toFixed(0).padStart(6)} ms CPU ${(mb / (cold.ms / 1000)).toFixed(0).padStart(4)} MB/s ${String(cold.events.length).padStart(7)} events ${String(states.size).padStart(5)} sessions | warm ${warm.ms.toFixed(0).padStart(5)} ms wall ${warm.cpuMs.toFixed(0).padStart(5)} ms CPU, ${restored} restored`,
  );
}

// 3. Watch mode: time to `ready` and resident memory added while every session directory is watched.
const readyIn = (source) =>
  new Promise((resolve) => {
    const wall = performance.now();
    const rss = process.memoryUsage().rss;
    const subscription = source(ctx({ watch: true })).subscribe((e) => {
      if (e.type === 'ready') resolve({ subscription, ms: performance.now() - wall, rssMb: (process.memoryUsage().rss - rss) / 1e6 });
    });
  });
for (const [name, source] of [['amp', amp], ['grok', grok], ['kimi', kimi]]) {
  globalThis.gc?.();
  const watched = await readyIn(source);
  console.log(`${name.padEnd(5)} watching: ready after ${watched.ms.toFixed(0)} ms, +${watched.rssMb.toFixed(0)} MB RSS (events and sessions included)`);
  watched.subscription.unsubscribe();
}
rmSync(root, { recursive: true, force: true });
