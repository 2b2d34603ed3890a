import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const billing: readonly DemoExchange[] = [
  { prompt: 'Why is the JPY total off by one yen on orders with many lines?', answer: 'Each line was rounded to cents before summing; JPY has no minor unit. Rounding now happens once, on the total.' },
  { prompt: 'Add a regression test with a 40-line JPY order', answer: 'Added invoice_jpy_test.go with the 40-line order from the ticket; it failed before the fix and passes now.' },
];

const infra: readonly DemoExchange[] = [
  { prompt: 'terraform plan shows drift on the staging bucket policy, find out why', answer: 'Someone added a statement by hand in the console; I moved it into policies/staging.tf so plan is clean.' },
];

/** Codex in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'codex'>[] = [
  { agent: 'codex', sessionId: demoId(4), meta: demoMeta('billing', 'gpt-5.2-codex', 'JPY rounding bug', { version: '0.116.0' }), tools: ['exec_command', 'apply_patch', 'exec_command'], pauseMs: 60_000, offsetMs: 27_000, conversation: billing },
  { agent: 'codex', sessionId: demoId(5), meta: demoMeta('infra', 'gpt-5.2-codex', 'Terraform drift', { version: '0.116.0' }), tools: ['web_search', 'apply_patch', 'exec_command'], pauseMs: 300_000, offsetMs: 200_000, conversation: infra },
];
