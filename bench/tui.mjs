// TUI frame cost, measured on the built code (npm run build first): one frame is what the TUI
// does per redraw (select and summarise the visible sessions, build the selected detail,
// render, encode with the dark theme, diff against the previous frame). At most ~7 frames a
// second are drawn, so the per-frame time times 7 is the TUI's CPU share while sessions change.
// Usage: node bench/tui.mjs [frames]
import { performance } from 'node:perf_hooks';
import { AGENT_KINDS } from '../dist/core/agents.js';
import { sessionKey } from '../dist/core/session.js';
import { reduceSession } from '../dist/streams/session-reducer.js';
import { buildFrame } from '../dist/sinks/tui/frame.js';
import { render } from '../dist/sinks/tui/render.js';
import { encodeLine } from '../dist/sinks/tui/encode.js';
import { diffFrames } from '../dist/sinks/tui/diff.js';
import { THEMES } from '../dist/sinks/tui/theme.js';
import { initialView } from '../dist/sinks/tui/state.js';

const FRAMES = Number(process.argv[2] ?? 200);
const NOW = Date.now();
const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'WebFetch'];

/** A session folded from real events: a prompt, tool calls, an answer, usage; ages spread over 8 h. */
const makeSession = (i) => {
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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

const measure = (count, windowMinutes, size) => {
  const sessions = Array.from({ length: count }, (_, i) => makeSession(i));
  const state = { sessions: new Map(sessions.map((s) => [sessionKey(s), s])), diagnostics: {}, ready: true };
  const ctx = { names: {}, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS), searched: [] };
  const view = initialView(windowMinutes, '');
  let previous;
  const times = [];
  let rows = 0;
  for (let f = 0; f < FRAMES; f += 1) {
    const t0 = performance.now();
    const frame = buildFrame(state, view, ctx, NOW + f * 150);
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
  for (const windowMinutes of [30, 480]) results.push(measure(count, windowMinutes, { width: 120, height: 40 }));
}
console.log('sessions  window  listed  frame median  frame p95  CPU at 7 fps');
for (const r of results) {
  console.log(
    `${String(r.count).padStart(8)}  ${String(r.windowMinutes).padStart(5)}m  ${String(r.listed).padStart(6)}  ${r.medianMs.toFixed(2).padStart(9)} ms  ${r.p95Ms.toFixed(2).padStart(6)} ms  ${((r.medianMs * 7) / 10).toFixed(1).padStart(9)} %`,
  );
}
