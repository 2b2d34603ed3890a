/**
 * A busy day, compressed (a watcher runs all day): `agentwatch --api` on the
 * idle corpus (7-day window) while agents work. Sessions of Claude Code and Codex are started and
 * written to as agents write them (a prompt, tool calls with their results, answers with usage),
 * a new session every few seconds, some finished sessions deleted, one SSE `?format=patch` client
 * and one client asking `GET /api/sessions` every few seconds. Memory is sampled all along.
 *
 * What it tells: whether the monitor's memory follows its working set or grows with the work it
 * has seen (a leak). The live heap of each minute is estimated by its lowest `heapUsed` (the
 * troughs after collections), and its growth over the second half of the run is given per hour.
 * Anchors from the same run: the same process idle before the work starts (its first minute), and
 * after the work stops (the last minute, once everything written is folded).
 *
 *   node bench/soak.mjs [--sessions N] [--minutes M] [--rate LINES_PER_S]
 *
 * Everything it writes goes under one project folder and one Codex day folder of its own, removed
 * at the end: the idle corpus stays as other suites expect it.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { EventSource } from 'eventsource';
import { CLI, idleCorpus, procCpuTicks, procStatusMiB, startMonitor, statsWhenReady, CLOCK_TICKS } from './monitor-run.mjs';
import { arg, saveResult, sleep } from './util.mjs';

const sessions = arg('sessions', 7700);
const minutes = Math.max(2, arg('minutes', 4));
const rate = arg('rate', 20);
const IDLE_S = 40;
const AFTER_S = 40;
const SAMPLE_MS = 500;
/** Sessions written to at once; each new one replaces the oldest, which is finished (and every third deleted). */
const ACTIVE = 24;
const NEW_SESSION_EVERY_S = 5;

const { env, corpus, token } = idleCorpus({ sessions });
const home = corpus.home;
const claudeDir = path.join(home, '.claude', 'projects', '-bench-soak-work');
const codexDir = path.join(home, '.codex', 'sessions', '2031', '01', '01');
const cleanUp = () => {
  rmSync(claudeDir, { recursive: true, force: true });
  rmSync(codexDir, { recursive: true, force: true });
};
cleanUp();
mkdirSync(claudeDir, { recursive: true });
mkdirSync(codexDir, { recursive: true });

let seed = 1;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const hex = (n) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
const words = 'read the parser fix the test cache window offset stream token session record line'.split(' ');
const sentence = (n) => Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ');
const output = () => sentence(40 + Math.floor(rand() * 400));

/** One Claude Code session: each step appends the lines of one turn's next record, as Claude Code does. */
const claudeWriter = () => {
  const id = uuid();
  const file = path.join(claudeDir, `${id}.jsonl`);
  const cwd = '/bench/soak/work';
  let parent = null;
  let step = 0;
  const line = (fields) => {
    const own = uuid();
    appendFileSync(file, `${JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.20', gitBranch: 'main', ...fields, uuid: own, timestamp: new Date().toISOString() })}\n`);
    parent = own;
  };
  const usage = () => ({ input_tokens: 4 + Math.floor(rand() * 50), cache_creation_input_tokens: Math.floor(rand() * 3000), cache_read_input_tokens: Math.floor(rand() * 60_000), output_tokens: 20 + Math.floor(rand() * 900) });
  let callId = '';
  return {
    file,
    step: () => {
      const phase = step % 4;
      step += 1;
      if (phase === 0) line({ type: 'user', message: { role: 'user', content: sentence(12) } });
      else if (phase === 1) {
        callId = `toolu_${hex(20)}`;
        line({ type: 'assistant', requestId: `req_${hex(20)}`, message: { id: `msg_${hex(20)}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: callId, name: rand() < 0.5 ? 'Read' : 'Bash', input: { file_path: `${cwd}/src/${hex(6)}.ts` } }], stop_reason: 'tool_use', usage: usage() } });
      } else if (phase === 2) line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: output() }] }, toolUseResult: { stdout: output(), stderr: '', interrupted: false } });
      else line({ type: 'assistant', requestId: `req_${hex(20)}`, message: { id: `msg_${hex(20)}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: sentence(30) }], stop_reason: 'end_turn', usage: usage() } });
    },
  };
};

/** One Codex session (a rollout file): the same rhythm in Codex's records, with cumulative token counts. */
const codexWriter = () => {
  const id = uuid();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const file = path.join(codexDir, `rollout-${stamp}-${id}.jsonl`);
  const cwd = '/bench/soak/codex';
  const push = (type, payload) => appendFileSync(file, `${JSON.stringify({ timestamp: new Date().toISOString(), type, payload })}\n`);
  push('session_meta', { id, timestamp: new Date().toISOString(), cwd, originator: 'codex_cli_rs', cli_version: '0.116.0', source: 'cli', model_provider: 'openai' });
  push('turn_context', { cwd, approval_policy: 'on-request', sandbox_policy: { mode: 'workspace-write' }, model: 'gpt-5.2-codex', effort: 'medium', summary: 'auto' });
  let step = 0;
  let input = 0;
  let callId = '';
  return {
    file,
    step: () => {
      const phase = step % 4;
      step += 1;
      if (phase === 0) {
        const text = sentence(10);
        push('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
        push('event_msg', { type: 'user_message', message: text, images: [] });
      } else if (phase === 1) {
        callId = `call_${hex(16)}`;
        push('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'rg -n window src' }), call_id: callId });
      } else if (phase === 2) {
        push('response_item', { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: output(), metadata: { exit_code: 0 } }) });
        input += 2_000 + Math.floor(rand() * 3_000);
        const total = { input_tokens: input, cached_input_tokens: Math.floor(input * 0.7), output_tokens: step * 50, reasoning_output_tokens: step * 10, total_tokens: input + step * 60 };
        push('event_msg', { type: 'token_count', info: { total_token_usage: total, last_token_usage: total, model_context_window: 272_000 } });
      } else {
        push('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: sentence(20) }] });
        push('event_msg', { type: 'task_complete', last_agent_message: 'done' });
      }
    },
  };
};

const snapshot = process.argv.includes('--snapshot');
const monitor = await startMonitor(env, { cli: CLI, nodeArgs: snapshot ? ['--heapsnapshot-signal=SIGUSR2'] : [] });
const headers = { authorization: `Bearer ${token}` };
const pid = monitor.child.pid;
const samples = [];
let phase = 'start';
const metrics = async () => {
  const text = await fetch(`${monitor.base}/metrics`, { headers }).then((r) => r.text()).catch(() => '');
  const value = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1024 / 1024;
  return { heapUsedMiB: value('nodejs_heap_size_used_bytes'), externalMiB: value('nodejs_external_memory_bytes') };
};
let sampling = true;
// The heap comes from a /metrics scrape, which looks at every session: one every 3 s (as a
// Prometheus would, if a busy one), RSS and CPU from /proc every half second.
const HEAP_EVERY = 6;
const sampler = (async () => {
  const t0 = Date.now();
  let heap = { heapUsedMiB: NaN, externalMiB: NaN };
  for (let n = 0; sampling; n += 1) {
    if (n % HEAP_EVERY === 0) heap = await metrics();
    samples.push({ t: (Date.now() - t0) / 1000, phase, rssMiB: procStatusMiB(pid, 'VmRSS'), cpuTicks: procCpuTicks(pid), fresh: n % HEAP_EVERY === 0, ...heap });
    await sleep(SAMPLE_MS);
  }
})();

let result;
try {
  await statsWhenReady(monitor.base, token);
  // The first minute after discovery settles (search index, cache writes): not idle yet.
  await sleep(30_000);
  phase = 'idle';
  const idleFrom = samples.length;
  await sleep(IDLE_S * 1000);
  const idleTo = samples.length;

  const patches = { count: 0, bytes: 0 };
  const stream = new EventSource(`${monitor.base}/api/events?format=patch&token=${token}`);
  stream.addEventListener('patch', (event) => {
    patches.count += 1;
    patches.bytes += event.data.length;
  });
  let listings = 0;
  const lister = setInterval(() => {
    void fetch(`${monitor.base}/api/sessions`, { headers }).then((r) => r.arrayBuffer()).then(() => (listings += 1)).catch(() => undefined);
  }, 3_000);

  phase = 'work';
  const workFrom = samples.length;
  const active = [];
  const finished = [];
  let created = 0;
  let deleted = 0;
  let lines = 0;
  const startSession = () => {
    active.push(created % 3 === 2 ? codexWriter() : claudeWriter());
    created += 1;
    if (active.length > ACTIVE) {
      const done = active.shift();
      finished.push(done);
      // Every third finished session is deleted (a user clearing old transcripts).
      if (finished.length % 3 === 0) {
        rmSync(done.file, { force: true });
        deleted += 1;
      }
    }
  };
  for (let i = 0; i < ACTIVE; i += 1) startSession();
  const workEnds = Date.now() + minutes * 60_000;
  let nextSession = Date.now() + NEW_SESSION_EVERY_S * 1000;
  while (Date.now() < workEnds) {
    const writer = active[Math.floor(rand() * active.length)];
    writer.step();
    lines += 1;
    if (Date.now() >= nextSession) {
      startSession();
      nextSession += NEW_SESSION_EVERY_S * 1000;
    }
    await sleep(1000 / rate);
  }
  const workTo = samples.length;
  clearInterval(lister);
  phase = 'after';
  await sleep(AFTER_S * 1000);
  // --snapshot: a V8 heap snapshot of the monitor after the work (written to its HOME), to see what stays.
  if (snapshot) {
    monitor.child.kill('SIGUSR2');
    await sleep(20_000);
  }
  const afterTo = samples.length;
  stream.close();
  const stats = await fetch(`${monitor.base}/api/stats`, { headers }).then((r) => r.json());

  // Lowest heapUsed of each 30 s window: the live set after that window's collections.
  const windows = (from, to) => {
    const out = [];
    const slice = samples.slice(from, to);
    const per = Math.max(1, Math.round(30_000 / SAMPLE_MS));
    for (let i = 0; i + per <= slice.length; i += per) {
      const part = slice.slice(i, i + per);
      out.push({ t: part[0].t, heapMiB: Math.min(...part.filter((s) => s.fresh).map((s) => s.heapUsedMiB)), rssMiB: Math.max(...part.map((s) => s.rssMiB)) });
    }
    return out;
  };
  const cpuPercent = (from, to) => {
    const a = samples[from];
    const b = samples[to - 1];
    return (100 * (b.cpuTicks - a.cpuTicks)) / CLOCK_TICKS / (b.t - a.t);
  };
  const idleWindows = windows(idleFrom, idleTo);
  const workWindows = windows(workFrom, workTo);
  const afterWindows = windows(workTo, afterTo);
  const half = workWindows.slice(Math.floor(workWindows.length / 2));
  const slope = (points, key) => {
    if (points.length < 2) return 0;
    const n = points.length;
    const mt = points.reduce((s, p) => s + p.t, 0) / n;
    const mv = points.reduce((s, p) => s + p[key], 0) / n;
    const num = points.reduce((s, p) => s + (p.t - mt) * (p[key] - mv), 0);
    const den = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
    return den === 0 ? 0 : (num / den) * 3600;
  };
  const lowest = (points, key) => Math.min(...points.map((p) => p[key]));
  result = {
    figures: {
      minutes,
      lines_written: lines,
      lines_per_second: lines / (minutes * 60),
      sessions_started: created,
      sessions_deleted: deleted,
      patches_received: patches.count,
      patch_kib_mean: patches.count ? patches.bytes / patches.count / 1024 : 0,
      listings_served: listings,
      work_cpu_percent: cpuPercent(workFrom, workTo),
      work_heap_live_mib: workWindows.map((w) => Number(w.heapMiB.toFixed(1))),
      work_rss_peak_mib: Math.max(...workWindows.map((w) => w.rssMiB)),
      heap_growth_second_half_mib_per_hour: slope(half, 'heapMiB'),
      rss_growth_second_half_mib_per_hour: slope(half, 'rssMiB'),
      after_heap_live_mib: lowest(afterWindows, 'heapMiB'),
      after_rss_mib: afterWindows.at(-1)?.rssMiB,
      listed_at_end: stats.total_sessions,
    },
    anchors: {
      idle_cpu_percent: cpuPercent(idleFrom, idleTo),
      idle_heap_live_mib: lowest(idleWindows, 'heapMiB'),
      idle_rss_mib: idleWindows.at(-1)?.rssMiB,
    },
  };
} finally {
  sampling = false;
  await sampler;
  await monitor.stop();
  cleanUp();
}

const f = result.figures;
const a = result.anchors;
console.log(`soak: ${f.minutes} min of work, ${f.lines_written} appends (${f.lines_per_second.toFixed(1)}/s), ${f.sessions_started} sessions started, ${f.sessions_deleted} deleted; ${f.patches_received} SSE patches (${f.patch_kib_mean.toFixed(1)} KiB each), ${f.listings_served} listings served`);
console.log(`  CPU while working ${f.work_cpu_percent.toFixed(1)} % (idle before: ${a.idle_cpu_percent.toFixed(2)} %)`);
console.log(`  live heap per 30 s while working: ${f.work_heap_live_mib.join(', ')} MiB (idle before: ${a.idle_heap_live_mib.toFixed(1)} MiB; after: ${f.after_heap_live_mib.toFixed(1)} MiB, ${(f.after_heap_live_mib / a.idle_heap_live_mib).toFixed(2)}x)`);
console.log(`  growth over the second half: heap ${f.heap_growth_second_half_mib_per_hour.toFixed(1)} MiB/h, RSS ${f.rss_growth_second_half_mib_per_hour.toFixed(1)} MiB/h; RSS peak ${f.work_rss_peak_mib.toFixed(0)} MiB (idle ${a.idle_rss_mib.toFixed(0)}, after ${f.after_rss_mib.toFixed(0)})`);
saveResult('soak', result);
if (process.argv.includes('--samples')) writeFileSync(path.join(home, 'soak-samples.json'), JSON.stringify(samples));
