import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionMetaPatch } from '../core/session.js';
import { GENERIC, type DemoExchange } from './conversations.js';

/** One generated session: who it is, how its work loop behaves and what it talks about. */
export interface DemoSession<K extends string = AgentKind> {
  readonly agent: K;
  readonly sessionId: string;
  readonly meta: SessionMetaPatch;
  /** Raw tool names this agent uses: [read-like, write-like, run-like]. */
  readonly tools: readonly [string, string, string];
  /** Pause after each answer before the next prompt: decides how long it sits waiting/idle. */
  readonly pauseMs: number;
  /** Where in its loop the session is when the demo starts (so the first snapshot is varied). */
  readonly offsetMs: number;
  readonly spawnTool?: string;
  readonly compacts?: boolean;
  /** Raises the demo's sample notification each time it waits (never sent to the desktop). */
  readonly notifies?: boolean;
  /** One exchange per loop, then round again; `GENERIC` when the session has none of its own. */
  readonly conversation?: readonly DemoExchange[];
}

/** An event of the loop at `offset` ms after the loop's start; `make` stamps it with its time. */
export interface DemoStep {
  readonly offset: number;
  readonly make: (at: number, loop: number) => readonly SessionEvent[];
}

/**
 * The exchange of loop `loop` (0 runs at start, history loops are negative). Older history loops
 * than the project's exchanges say nothing (their turns still count): the conversation shown
 * never repeats itself.
 */
const exchangeOf = (spec: DemoSession, loop: number): DemoExchange => {
  const list = spec.conversation ?? GENERIC;
  if (loop <= -list.length) return { prompt: '', answer: '' };
  return list[((loop % list.length) + list.length) % list.length] ?? { prompt: '', answer: '' };
};

/** 1 to 6, fixed per session: sessions differ in size (tokens, cost) as real ones do. */
const sizeOf = (spec: DemoSession): number => ([...spec.sessionId].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 6) + 1;

/**
 * The loop of one session, as steps with offsets: prompt, (compaction), read, write, run,
 * (sub-agent), answer with usage, then a pause. Returns the steps and the loop's length.
 */
export const demoLoop = (spec: DemoSession): { readonly steps: readonly DemoStep[]; readonly length: number } => {
  const ref = { agent: spec.agent, sessionId: spec.sessionId };
  const steps: DemoStep[] = [];
  let t = 0;
  const add = (gap: number, make: DemoStep['make']): void => {
    t += gap;
    steps.push({ offset: t, make });
  };
  const tool = (gap: number, runMs: number, name: string, slot: string, filePath?: string): void => {
    const id = (loop: number): string => `${spec.sessionId.slice(0, 8)}-${loop}-${slot}`;
    add(gap, (at, loop) => [{ ...ref, type: 'tool_call', at, name, callId: id(loop), ...(filePath ? { filePath } : {}) }]);
    add(runMs, (at, loop) => [{ ...ref, type: 'tool_result', at, callId: id(loop) }]);
  };
  const cwd = spec.meta.cwd ?? '/';
  const size = sizeOf(spec);
  add(0, (at, loop) => [{ ...ref, type: 'turn', at, role: 'user', text: exchangeOf(spec, loop).prompt }]);
  if (spec.compacts) {
    add(1_500, (at) => [{ ...ref, type: 'compaction', at, phase: 'start' }]);
    add(12_000, (at) => [{ ...ref, type: 'compaction', at, phase: 'end' }]);
  }
  tool(2_500, 1_200, spec.tools[0], 'r', undefined);
  tool(1_500, 2_000, spec.tools[0], 'r2', undefined);
  tool(3_000, 1_500, spec.tools[1], 'w', `${cwd}/src/client.ts`);
  tool(2_000, 6_000, spec.tools[2], 'x', undefined);
  if (spec.spawnTool) tool(2_000, 75_000, spec.spawnTool, 's', undefined);
  add(3_000, (at, loop) => [
    { ...ref, type: 'turn', at, role: 'assistant', text: exchangeOf(spec, loop).answer },
    {
      ...ref,
      type: 'usage',
      at,
      messageId: `${spec.sessionId}-m${loop}`,
      tokens: { input: size * (1_200 + (loop % 7) * 90), output: size * (420 + (loop % 5) * 60), cacheCreation: size * 2_000, cacheRead: size * (18_000 + Math.abs(loop) * 500) },
    },
  ]);
  return { steps, length: t + spec.pauseMs };
};

/** The demo's session ids: fixed, so that pictures and tests can name a session. */
export const demoId = (n: number): string => `d${n.toString(16).padStart(7, '0')}-7c31-4e02-b5a9-4f1e2d3c4b5a`;
const home = '/home/demo/src';
/** A demo session's meta: its project under the demo's home, model and name. */
export const demoMeta = (project: string, model: string, agentName: string, extra: SessionMetaPatch = {}): SessionMetaPatch => ({
  cwd: `${home}/${project}`,
  model,
  gitBranch: 'main',
  agentName,
  version: '1.0.0',
  ...extra,
});
