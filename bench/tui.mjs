// TUI frame cost, measured on the built code (npm run build first): one frame is what the TUI
// does per redraw (select and summarise the visible sessions, build the selected detail,
// render, encode with the dark theme, diff against the previous frame). At most ~7 frames a
// second are drawn, so the per-frame time times 7 is the TUI's CPU share while sessions change.
// Usage: node bench/tui.mjs [frames]
// BENCH_BASE_DIST=<another build's dist> measures that build too, in the same run, as the anchor.
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL, URL as NodeURL } from 'node:url';
import { median } from './util.mjs';

const load = async (dist) => {
  const from = (file) => import(pathToFileURL(path.resolve(dist, file)).href);
  const [agents, session, reducer, frame, render, encode, diff, theme, state] = await Promise.all(
    ['core/agents.js', 'core/session.js', 'streams/reduce-session.js', 'sinks/tui/frame.js', 'sinks/tui/render.js', 'sinks/tui/encode.js', 'sinks/tui/diff.js', 'sinks/tui/theme.js', 'sinks/tui/state.js'].map(from),
  );
  return { ...agents, ...session, ...reducer, ...frame, ...render, ...encode, ...diff, ...theme, ...state };
};
const builds = [['this build', await load(fileURLToPath(new NodeURL('../dist/', import.meta.url)))]];
if (process.env.BENCH_BASE_DIST) builds.push(['base build', await load(process.env.BENCH_BASE_DIST)]);

const FRAMES = Number(process.argv[2] ?? 200);
const NOW = Date.now();
const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'WebFetch'];

/** A session folded from real events: a prompt, tool calls, an answer, usage; ages spread over 8 h. */
const makeSession = ({ AGENT_KINDS, reduceSession }, i) => {
  const agent = AGENT_KINDS[i % AGENT_KINDS.length];
  const sessionId = `s${i}`;
  const last = NOW - ((i * 7919) % (8 * 3_600_000));
  const events = [
    { type: 'meta', agent, sessionId, patch: { cwd: `/home/dev/project-${i % 500}/pkg-${i}`, model: 'claude-sonnet-4-5', gitBranch: 'main', resumeCommand: `claude --resume ${sessionId}` } },
    { type: 'turn', agent, sessionId, at: last - 600_000, role: 'user', text: `task ${i}: make the thing work` },
    ...Array.from({ length: 12 }, (_, k) => ({ type: 'tool_call', agent, sessionId, at: last - 500_000 + k * 30_000, name: TOOLS[k % TOOLS.length], callId: `c${k}` })),
    { type: 'turn', agent, sessionId, at: last, role: 'assistant', text: 'Done. The tests pass.' },
    { type: 'usage', agent, sessionId, tokens: { input: 1000 + i, output: 300, cacheCreation: 2000, cacheRead: 40_000 } },
  ];
  return events.reduce((state, event) => reduceSession(state, event), undefined);
};


const measure = (build, count, windowMinutes, size) => {
  const { AGENT_KINDS, sessionKey, buildFrame, render, encodeLine, diffFrames, THEMES, initialView } = build;
  const sessions = Array.from({ length: count }, (_, i) => makeSession(build, i));
  const state = { sessions: new Map(sessions.map((s) => [sessionKey(s), s])), diagnostics: {}, ready: true };
  const ctx = { names: {}, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS), searched: [] };
  const view = initialView(windowMinutes, '');
  let previous;
  // The order of the previous frame, as the TUI keeps it (working rows keep their places).
  let memory;
  const times = [];
  let rows = 0;
  for (let f = 0; f < FRAMES; f += 1) {
    const t0 = performance.now();
    const frame = buildFrame(state, view, ctx, NOW + f * 150, memory);
    memory = frame.memory;
    const lines = render(frame, size).map((line) => encodeLine(line, THEMES.dark));
    const changes = diffFrames(previous, lines);
    previous = lines;
    times.push(performance.now() - t0);
    rows = frame.rows.length;
    if (changes.length < 0) throw new Error('unreachable');
  }
  return { count, windowMinutes, listed: rows, medianMs: median(times), p95Ms: [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)] };
};

const results = [];
for (const count of [10, 1000, 10_000]) {
  for (const windowMinutes of [30, 480]) {
    for (const [name, build] of builds) results.push({ name, ...measure(build, count, windowMinutes, { width: 120, height: 40 }) });
  }
}
console.log('build       sessions  window  listed  frame median  frame p95  CPU at 7 fps');
for (const r of results) {
  console.log(
    `${r.name.padEnd(10)}  ${String(r.count).padStart(8)}  ${String(r.windowMinutes).padStart(5)}m  ${String(r.listed).padStart(6)}  ${r.medianMs.toFixed(2).padStart(9)} ms  ${r.p95Ms.toFixed(2).padStart(6)} ms  ${((r.medianMs * 7) / 10).toFixed(1).padStart(9)} %`,
  );
}
const figures = Object.fromEntries(results.filter((r) => r.name === 'this build').map((r) => [`frame_ms_${r.count}_${r.windowMinutes}m`, Number(r.medianMs.toFixed(2))]));
const anchors = Object.fromEntries(results.filter((r) => r.name === 'base build').map((r) => [`frame_ms_${r.count}_${r.windowMinutes}m`, Number(r.medianMs.toFixed(2))]));
console.log(JSON.stringify({ name: 'tui', figures, anchors }));
