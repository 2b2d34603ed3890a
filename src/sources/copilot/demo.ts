import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const ledger: readonly DemoExchange[] = [
  { prompt: 'Use half-even rounding for the interest calculation', answer: 'Interest uses banker\'s rounding now; the year-end totals match the bank statement to the cent.' },
];

/** Copilot in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'copilot'>[] = [
  { agent: 'copilot', sessionId: demoId(14), meta: demoMeta('ledger', 'gpt-5', 'Half-even rounding', { version: '1.0.78' }), tools: ['view', 'edit', 'bash'], pauseMs: 45_000, offsetMs: 17_000, spawnTool: 'task', conversation: ledger },
];
