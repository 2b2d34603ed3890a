import type { DemoExchange } from '../../demo/conversations.js';
import { demoId, demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const weather: readonly DemoExchange[] = [
  { prompt: 'Add a /forecast endpoint with 7 days of data', answer: 'GET /forecast?lat=&lon= returns 7 days from the cached provider data; 404 outside the covered area.' },
  { prompt: 'Cache the provider calls for 10 minutes', answer: 'Responses are cached per rounded coordinate for 10 minutes; a test checks one provider call for two requests.' },
];

/** Gemini in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'gemini'>[] = [
  { agent: 'gemini', sessionId: demoId(13), meta: demoMeta('weather', 'gemini-3-pro-preview', 'Forecast endpoint', { version: '' }), tools: ['read_file', 'replace', 'run_shell_command'], pauseMs: 65_000, offsetMs: 31_000, conversation: weather },
];
