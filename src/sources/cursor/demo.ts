import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const designSystem: readonly DemoExchange[] = [
  { prompt: 'Add primary, secondary and ghost variants to Button', answer: 'Button takes variant="primary|secondary|ghost"; stories and snapshots added, the old "outline" prop still works.' },
  { prompt: 'Check the contrast of the ghost variant', answer: 'Ghost text was 3.9:1 on the dark theme; darkened to pass AA at 4.6:1.' },
];

/** Cursor in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'cursor'>[] = [
  { agent: 'cursor', sessionId: demoId(12), meta: demoMeta('design-system', 'gpt-5.1-codex', 'Button variants'), tools: ['read_file', 'edit_file', 'run_terminal_cmd'], pauseMs: 55_000, offsetMs: 12_000, conversation: designSystem },
];
