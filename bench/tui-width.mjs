// The cost of terminal cell widths in the TUI, on the built code (npm run build first): a
// 200-row list frame of sessions whose folders and prompts mix scripts (accents, CJK, Hangul,
// emoji), and `displayWidth` over 10,000 such strings. Frames of two builds are interleaved.
// Usage: BENCH_BASE_DIST=<another build's dist> node bench/tui-width.mjs [rounds]
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL, URL as NodeURL } from 'node:url';
import { median } from './util.mjs';

const load = async (dist) => {
  const from = (file) => import(pathToFileURL(path.resolve(dist, file)).href);
  const modules = await Promise.all(
    ['core/agents.js', 'core/session.js', 'streams/session-reducer.js', 'sinks/tui/frame.js', 'sinks/tui/render.js', 'sinks/tui/encode.js', 'sinks/tui/theme.js', 'sinks/tui/state.js', 'sinks/tui/text.js'].map(from),
  );
  return Object.assign({}, ...modules);
};
const builds = [['this build', await load(fileURLToPath(new NodeURL('../dist/', import.meta.url)))]];
if (process.env.BENCH_BASE_DIST) builds.push(['base build', await load(process.env.BENCH_BASE_DIST)]);

const ROUNDS = Number(process.argv[2] ?? 15);
const NOW = Date.now();
const WORDS = ['refactor', 'the loader', 'Réparer l’accentuation', '日本語のセッション', 'fix 🐛 in parser', '한국어 세션', 'ütf-8 çà et là', 'naïve café', '中文路径', 'plain words'];
const mixed = (i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`;

const makeSession = ({ AGENT_KINDS, reduceSession }, i) => {
  const agent = AGENT_KINDS[i % AGENT_KINDS.length];
  const sessionId = `s${i}`;
  const last = NOW - ((i * 7919) % (3 * 3_600_000));
  const events = [
    { type: 'meta', agent, sessionId, patch: { cwd: `/home/dev/${WORDS[i % WORDS.length].replace(/ /g, '-')}/pkg-${i}`, model: 'claude-sonnet-4-5', gitBranch: 'main' } },
    { type: 'turn', agent, sessionId, at: last - 600_000, role: 'user', text: mixed(i) },
    { type: 'turn', agent, sessionId, at: last, role: 'assistant', text: mixed(i + 3) },
    { type: 'usage', agent, sessionId, tokens: { input: 1000 + i, output: 300, cacheCreation: 2000, cacheRead: 40_000 } },
  ];
  return events.reduce((state, event) => reduceSession(state, event), undefined);
};

const setUp = (build) => {
  const { AGENT_KINDS, sessionKey, initialView } = build;
  const sessions = Array.from({ length: 200 }, (_, i) => makeSession(build, i));
  const state = { sessions: new Map(sessions.map((s) => [sessionKey(s), s])), diagnostics: {}, ready: true };
  const ctx = { names: {}, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS), searched: [] };
  return { state, ctx, view: initialView(480, '') };
};

const frameMs = (build, setup, f) => {
  const { buildFrame, render, encodeLine, THEMES } = build;
  const t0 = performance.now();
  const frame = buildFrame(setup.state, setup.view, setup.ctx, NOW + f * 150, undefined);
  const lines = render(frame, { width: 160, height: 210 }).map((line) => encodeLine(line, THEMES.dark));
  if (lines.length === 0) throw new Error('no frame');
  return performance.now() - t0;
};

const strings = Array.from({ length: 10_000 }, (_, i) => mixed(i));
const widthsMs = ({ displayWidth }) => {
  const t0 = performance.now();
  let total = 0;
  for (const text of strings) total += displayWidth(text);
  if (total === 0) throw new Error('no width');
  return performance.now() - t0;
};

const setups = new Map(builds.map(([name, build]) => [name, setUp(build)]));
const frames = new Map(builds.map(([name]) => [name, []]));
const widths = new Map(builds.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, build] of round % 2 === 0 ? builds : [...builds].reverse()) {
    for (let f = 0; f < 10; f += 1) frames.get(name).push(frameMs(build, setups.get(name), f));
    widths.get(name).push(widthsMs(build));
  }
}
const figures = {};
for (const [name] of builds) {
  figures[name] = { frame_ms: Number(median(frames.get(name)).toFixed(2)), width_10k_ms: Number(median(widths.get(name)).toFixed(2)) };
  console.log(`${name.padEnd(10)}  200-row frame ${figures[name].frame_ms.toFixed(2).padStart(7)} ms   displayWidth x10k ${figures[name].width_10k_ms.toFixed(2).padStart(7)} ms`);
}
console.log(JSON.stringify({ name: 'tui-width', figures }));
