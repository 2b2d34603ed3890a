import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const bakery: readonly DemoExchange[] = [
  { prompt: 'Add a recipe page for the sourdough loaf with a printable layout', answer: 'Added /recipes/sourdough with ingredient weights and a print stylesheet; the page passes the accessibility checks.' },
  { prompt: 'Scale the ingredients when the visitor picks a number of loaves', answer: 'A loaves selector rescales every weight, rounded to 5 g; the starter stays in grams, never cups.' },
];

/** Crush in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'crush'>[] = [
  { agent: 'crush', sessionId: demoId(16), meta: demoMeta('bakery', 'claude-sonnet-4-5', 'Sourdough recipe page'), tools: ['view', 'edit', 'bash'], pauseMs: 42_000, offsetMs: 28_000, spawnTool: 'agent', conversation: bakery },
];
