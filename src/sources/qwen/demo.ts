import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const shop: readonly DemoExchange[] = [
  { prompt: 'Hide products with zero stock from the listing', answer: 'Out-of-stock products are hidden from listings and search but still reachable by their link, marked "sold out".' },
  { prompt: 'Email me when a hidden product is restocked', answer: 'A restock hook sends one email per product when its stock goes from 0 to more; unsubscribe link included.' },
];

/** Qwen in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'qwen'>[] = [
  { agent: 'qwen', sessionId: demoId(15), meta: demoMeta('shop', 'qwen-coder', 'Zero-stock products', { version: '0.18.1' }), tools: ['read_file', 'write_file', 'run_shell_command'], pauseMs: 38_000, offsetMs: 24_000, conversation: shop },
];
