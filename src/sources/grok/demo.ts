import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const scraper: readonly DemoExchange[] = [
  { prompt: 'Rate-limit the crawler to 2 requests a second per host', answer: 'Added a per-host limiter in fetch.py; hosts are crawled in parallel, each at 2 requests a second.' },
  { prompt: 'Respect robots.txt crawl-delay too', answer: 'A crawl-delay in robots.txt now overrides the default rate when it is slower.' },
];

/** Grok in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'grok'>[] = [
  { agent: 'grok', sessionId: demoId(10), meta: demoMeta('scraper', 'grok-code-fast-1', 'Rate-limit the crawler'), tools: ['read_file', 'edit_file', 'bash'], pauseMs: 40_000, offsetMs: 6_000, conversation: scraper },
];
