import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const mobileApp: readonly DemoExchange[] = [
  { prompt: 'Queue writes while offline and sync them when the network is back', answer: 'Writes go to an IndexedDB outbox and replay in order on reconnect; conflicts keep the server copy and flag the item.' },
  { prompt: 'Show the user how many changes are waiting to sync', answer: 'A badge on the sync icon shows the outbox count and clears when the queue drains.' },
];

/** Amp in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'amp'>[] = [
  { agent: 'amp', sessionId: `T-${demoId(7)}`, meta: demoMeta('mobile-app', 'claude-sonnet-4-5', 'Offline sync'), tools: ['Read', 'edit_file', 'Bash'], pauseMs: 80_000, offsetMs: 15_000, conversation: mobileApp },
];
