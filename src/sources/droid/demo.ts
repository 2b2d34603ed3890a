import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const ordersApi: readonly DemoExchange[] = [
  { prompt: 'Paginate GET /orders with cursors instead of page numbers', answer: 'GET /orders takes ?cursor= and returns next_cursor; the old ?page= still works for a release, marked deprecated.' },
  { prompt: 'Keep the order stable when two orders share a timestamp', answer: 'The cursor now encodes the time and the id, so ties keep their order; a test inserts 50 orders in one millisecond.' },
];

/** Droid in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'droid'>[] = [
  { agent: 'droid', sessionId: demoId(17), meta: demoMeta('orders-api', 'claude-sonnet-4-5-20250929', 'Orders pagination'), tools: ['Read', 'Edit', 'Execute'], pauseMs: 42_000, offsetMs: 14_000, spawnTool: 'Task', conversation: ordersApi },
];
