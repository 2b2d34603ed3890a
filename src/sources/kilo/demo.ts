import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const dashboard: readonly DemoExchange[] = [
  { prompt: 'The chart tooltips cover the data point, move them above it', answer: 'Tooltips now sit above the point and flip below near the top edge. Should I also round the values to one decimal?' },
  { prompt: 'Yes, one decimal, and show the unit', answer: 'Values read like "12.4 ms" now; the unit comes from the series metadata.' },
];

/** Kilo in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'kilo'>[] = [
  { agent: 'kilo', sessionId: `ses_${demoId(9).slice(0, 12)}`, meta: demoMeta('dashboard', 'gemini-2.5-pro', 'Chart tooltips'), tools: ['read', 'write', 'bash'], pauseMs: 50_000, offsetMs: 36_000, notifies: true, conversation: dashboard },
];
