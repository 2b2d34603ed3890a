import type { DemoExchange } from '../../demo/conversations.js';
import { demoMeta, type DemoSession } from '../../demo/scripts.js';

// What the demo sessions talk about: one exchange per loop, then round again.
const garden: readonly DemoExchange[] = [
  { prompt: 'Build a watering schedule from the soil moisture readings', answer: 'The scheduler waters a bed when its moisture stays under 30 % for two readings; the plan for the week is in schedule.json.' },
  { prompt: 'Skip watering when rain is forecast', answer: 'Beds are skipped when the forecast gives more than 5 mm in the next 12 hours; two tests cover the edge.' },
];

/** Goose in `--demo`: its sessions, how their work loops behave and what they talk about. */
export const demo: readonly DemoSession<'goose'>[] = [
  { agent: 'goose', sessionId: '20260310_4', meta: demoMeta('garden', 'gpt-4o', 'Watering schedule'), tools: ['developer__text_editor', 'developer__text_editor', 'developer__shell'], pauseMs: 150_000, offsetMs: 33_000, conversation: garden },
];
