import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const invoicer: readonly DemoExchange[] = [
  { prompt: 'Export invoices as PDF with the company logo', answer: 'PDF export works for single invoices and batches; the logo comes from settings and falls back to the name.' },
  { prompt: 'The totals column is cut off in A4', answer: 'Column widths now follow the page size; A4 and Letter both fit, checked with a 30-line invoice.' },
];

/** Kimi in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'kimi'>[] = [
  { agent: 'kimi', sessionId: demoId(11), meta: demoMeta('invoicer', 'kimi-k2-turbo-preview', 'PDF export'), tools: ['ReadFile', 'StrReplaceFile', 'Shell'], pauseMs: 70_000, offsetMs: 22_000, spawnTool: 'Task', conversation: invoicer },
];
