import type { WebhookEntry } from '../../../src/config/schema.js';
import type { Transition } from '../../../src/core/session.js';

/** A transition with readable defaults; tests override what they are about. */
export const transition = (overrides: Partial<Transition> = {}): Transition => ({
  agent: 'claude',
  sessionId: 's1',
  from: 'thinking',
  to: 'waiting',
  at: Date.UTC(2026, 10, 21, 12, 0, 0),
  cwd: '/home/dev/projects/shop',
  isSidechain: false,
  ...overrides,
});

export const entry = (overrides: Partial<WebhookEntry> = {}): WebhookEntry => ({
  name: 'hook',
  url: 'http://127.0.0.1:9/hook',
  events: [],
  agents: [],
  enabled: true,
  ...overrides,
});

/** Deterministic delivery ids: d1, d2, ... */
export const counterIds = (): (() => string) => {
  let n = 0;
  return () => `d${(n += 1)}`;
};
