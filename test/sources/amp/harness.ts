import { cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { asyncScheduler, type Subscription } from 'rxjs';
import { toEffective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import type { Source } from '../../../src/core/contracts.js';
import type { SessionEvent, SessionState } from '../../../src/core/session.js';
import type { SourceCtx } from '../../../src/sources/internal/options.js';
import { reduceSession, type SessionScopedEvent } from '../../../src/streams/session-reducer.js';

/** Test harness shared by the amp, grok and kimi source tests: real files, real watchers, the real fold. */

export const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/** Copies `fixtures/<agent>/` (a fake-HOME subtree) into `home`. */
export const installFixture = (agent: 'amp' | 'grok' | 'kimi', home: string): Promise<void> => cp(`${FIXTURES}${agent}`, home, { recursive: true });

export const makeCtx = (env: Record<string, string>, extra: Partial<SourceCtx> = {}): SourceCtx => ({
  config: toEffective(configSchema.parse({}), env).config,
  env,
  scheduler: asyncScheduler,
  now: () => asyncScheduler.now(),
  log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  platform: 'linux',
  ...extra,
});

export interface Run {
  readonly events: SessionEvent[];
  readonly errors: unknown[];
  readonly done: () => boolean;
  readonly subscription: Subscription;
  /** Every session folded from the events so far (removed ones are absent). */
  readonly sessions: () => Map<string, SessionState>;
  readonly diagnostics: () => Extract<SessionEvent, { type: 'diagnostic' }>[];
}

export const start = (source: Source, ctx: SourceCtx): Run => {
  const events: SessionEvent[] = [];
  const errors: unknown[] = [];
  let complete = false;
  const subscription = source(ctx).subscribe({
    next: (event) => events.push(event),
    error: (error: unknown) => errors.push(error),
    complete: () => (complete = true),
  });
  const sessions = (): Map<string, SessionState> => {
    const map = new Map<string, SessionState>();
    for (const event of events) {
      if (event.type === 'ready' || event.type === 'diagnostic') continue;
      const next = reduceSession(map.get(event.sessionId), event as SessionScopedEvent);
      if (next) map.set(event.sessionId, next);
      else map.delete(event.sessionId);
    }
    return map;
  };
  const diagnostics = () => events.filter((e): e is Extract<SessionEvent, { type: 'diagnostic' }> => e.type === 'diagnostic');
  return { events, errors, done: () => complete, subscription, sessions, diagnostics };
};

/** Polls `check` until it holds (a real file-watch event has to arrive); fails after `timeoutMs`. */
export const waitFor = async (what: string, check: () => boolean, timeoutMs = 8_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

export const isReady = (run: Run): boolean => run.events.some((e) => e.type === 'ready');

/** Folds the events of one session with the real reducer (pure; for records-in, activity-out tests). */
export const foldEvents = (events: readonly SessionEvent[]): SessionState | undefined => {
  let state: SessionState | undefined;
  for (const event of events) {
    if (event.type === 'ready' || event.type === 'diagnostic') continue;
    state = reduceSession(state, event as SessionScopedEvent);
  }
  return state;
};
