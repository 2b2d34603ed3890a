import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionMetaPatch } from '../core/session.js';
import { DEMO_CONVERSATIONS, GENERIC, type DemoExchange } from './conversations.js';

/** One generated session: who it is and how its work loop behaves. */
export interface DemoSession {
  readonly agent: AgentKind;
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
  const project = (spec.meta.cwd ?? '').split('/').pop() ?? '';
  const list = DEMO_CONVERSATIONS[project] ?? GENERIC;
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

const id = (n: number): string => `d${n.toString(16).padStart(7, '0')}-7c31-4e02-b5a9-4f1e2d3c4b5a`;
const home = '/home/demo/src';
const meta = (project: string, model: string, agentName: string, extra: SessionMetaPatch = {}): SessionMetaPatch => ({
  cwd: `${home}/${project}`,
  model,
  gitBranch: 'main',
  agentName,
  version: '1.0.0',
  ...extra,
});

/** The demo cast: every agent at least once, with loops of different speeds and starting points. */
export const DEMO_SESSIONS: readonly DemoSession[] = [
  { agent: 'claude', sessionId: id(1), meta: meta('acme-api', 'claude-sonnet-4-5', 'Rate limiter', { gitBranch: 'feat/ratelimit', version: '2.0.31' }), tools: ['Read', 'Edit', 'Bash'], pauseMs: 45_000, offsetMs: 3_000, spawnTool: 'Task' },
  { agent: 'claude', sessionId: id(2), meta: meta('website', 'claude-opus-4-1', 'Landing page copy', { version: '2.0.31', source: 'desktop' }), tools: ['Grep', 'Write', 'Bash'], pauseMs: 150_000, offsetMs: 40_000, compacts: true },
  { agent: 'claude', sessionId: id(3), meta: meta('acme-api', 'claude-haiku-4-5', '', { isSidechain: true, parentId: id(1) }), tools: ['Read', 'Read', 'Grep'], pauseMs: 20_000, offsetMs: 1_000 },
  { agent: 'codex', sessionId: id(4), meta: meta('billing', 'gpt-5.2-codex', 'JPY rounding bug', { version: '0.116.0' }), tools: ['exec_command', 'apply_patch', 'exec_command'], pauseMs: 60_000, offsetMs: 27_000 },
  { agent: 'codex', sessionId: id(5), meta: meta('infra', 'gpt-5.2-codex', 'Terraform drift', { version: '0.116.0' }), tools: ['web_search', 'apply_patch', 'exec_command'], pauseMs: 300_000, offsetMs: 200_000 },
  { agent: 'pi', sessionId: `2026-03-10T09-30-00-123Z_${id(6)}`, meta: meta('notes', 'claude-sonnet-4-5', 'Rename todo file', { version: '' }), tools: ['read', 'edit', 'bash'], pauseMs: 35_000, offsetMs: 9_000, compacts: true },
  { agent: 'amp', sessionId: `T-${id(7)}`, meta: meta('mobile-app', 'claude-sonnet-4-5', 'Offline sync'), tools: ['Read', 'edit_file', 'Bash'], pauseMs: 80_000, offsetMs: 15_000 },
  { agent: 'opencode', sessionId: `ses_${id(8).slice(0, 12)}`, meta: meta('parser', 'gpt-4o', 'Tokenizer speedup'), tools: ['read', 'edit', 'bash'], pauseMs: 25_000, offsetMs: 19_000 },
  { agent: 'kilo', sessionId: `ses_${id(9).slice(0, 12)}`, meta: meta('dashboard', 'gemini-2.5-pro', 'Chart tooltips'), tools: ['read', 'write', 'bash'], pauseMs: 50_000, offsetMs: 36_000, notifies: true },
  { agent: 'grok', sessionId: id(10), meta: meta('scraper', 'grok-code-fast-1', 'Rate-limit the crawler'), tools: ['read_file', 'edit_file', 'bash'], pauseMs: 40_000, offsetMs: 6_000 },
  { agent: 'kimi', sessionId: id(11), meta: meta('invoicer', 'kimi-k2-turbo-preview', 'PDF export'), tools: ['ReadFile', 'StrReplaceFile', 'Shell'], pauseMs: 70_000, offsetMs: 22_000, spawnTool: 'Task' },
  { agent: 'crush', sessionId: id(16), meta: meta('bakery', 'claude-sonnet-4-5', 'Sourdough recipe page'), tools: ['view', 'edit', 'bash'], pauseMs: 42_000, offsetMs: 28_000, spawnTool: 'agent' },
  { agent: 'cursor', sessionId: id(12), meta: meta('design-system', 'gpt-5.1-codex', 'Button variants'), tools: ['read_file', 'edit_file', 'run_terminal_cmd'], pauseMs: 55_000, offsetMs: 12_000 },
  { agent: 'gemini', sessionId: id(13), meta: meta('weather', 'gemini-3-pro-preview', 'Forecast endpoint', { version: '' }), tools: ['read_file', 'replace', 'run_shell_command'], pauseMs: 65_000, offsetMs: 31_000 },
  { agent: 'goose', sessionId: '20260310_4', meta: meta('garden', 'gpt-4o', 'Watering schedule'), tools: ['developer__text_editor', 'developer__text_editor', 'developer__shell'], pauseMs: 150_000, offsetMs: 33_000 },
  { agent: 'copilot', sessionId: id(14), meta: meta('ledger', 'gpt-5', 'Half-even rounding', { version: '1.0.78' }), tools: ['view', 'edit', 'bash'], pauseMs: 45_000, offsetMs: 17_000, spawnTool: 'task' },
  { agent: 'droid', sessionId: id(17), meta: meta('orders-api', 'claude-sonnet-4-5-20250929', 'Orders pagination'), tools: ['Read', 'Edit', 'Execute'], pauseMs: 42_000, offsetMs: 14_000, spawnTool: 'Task' },
  { agent: 'qwen', sessionId: id(15), meta: meta('shop', 'qwen-coder', 'Zero-stock products', { version: '0.18.1' }), tools: ['read_file', 'write_file', 'run_shell_command'], pauseMs: 38_000, offsetMs: 24_000 },
];
