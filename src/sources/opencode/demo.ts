import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const parser: readonly DemoExchange[] = [
  { prompt: 'The tokenizer is slow on big files, profile it', answer: 'String concatenation in the identifier loop was quadratic; slicing the input instead makes a 5 MB file 9x faster.' },
  { prompt: 'Does the speedup break unicode identifiers?', answer: 'No: the slice works on code points; I added tests with Greek and CJK identifiers and they pass.' },
];

/** OpenCode in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'opencode'>[] = [
  { agent: 'opencode', sessionId: `ses_${demoId(8).slice(0, 12)}`, meta: demoMeta('parser', 'gpt-4o', 'Tokenizer speedup'), tools: ['read', 'edit', 'bash'], pauseMs: 25_000, offsetMs: 19_000, conversation: parser },
];
