import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const acmeApi: readonly DemoExchange[] = [
  { prompt: 'Add a token-bucket rate limiter to POST /login, 5 tries a minute per IP', answer: 'Added src/limits/bucket.ts and wired it into the login route; 429 with Retry-After, 4 new tests pass.' },
  { prompt: 'Make the limit configurable per route', answer: 'Limits now come from config/routes.yaml; the login route keeps 5/min, the others default to 60/min.' },
  { prompt: 'Does it still work behind the load balancer?', answer: 'It keyed on the proxy address; it now reads X-Forwarded-For from trusted proxies only.' },
];

const website: readonly DemoExchange[] = [
  { prompt: 'Rewrite the hero copy: shorter, say what it does in one line', answer: 'New hero: "Ship invoices your clients pay the same day." Subline and button text updated to match.' },
  { prompt: 'Give me three variants of the pricing intro', answer: 'Three variants are in copy/pricing.md, from plain to playful; I would pick the second.' },
];

/** Claude in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'claude'>[] = [
  { agent: 'claude', sessionId: demoId(1), meta: demoMeta('acme-api', 'claude-sonnet-4-5', 'Rate limiter', { gitBranch: 'feat/ratelimit', version: '2.0.31' }), tools: ['Read', 'Edit', 'Bash'], pauseMs: 45_000, offsetMs: 3_000, spawnTool: 'Task', conversation: acmeApi },
  { agent: 'claude', sessionId: demoId(2), meta: demoMeta('website', 'claude-opus-4-1', 'Landing page copy', { version: '2.0.31', source: 'desktop' }), tools: ['Grep', 'Write', 'Bash'], pauseMs: 150_000, offsetMs: 40_000, compacts: true, conversation: website },
  { agent: 'claude', sessionId: demoId(3), meta: demoMeta('acme-api', 'claude-haiku-4-5', '', { isSidechain: true, parentId: demoId(1) }), tools: ['Read', 'Read', 'Grep'], pauseMs: 20_000, offsetMs: 1_000, conversation: acmeApi },
];
