import { cp, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { asyncScheduler, type Subscription } from 'rxjs';
import { expect } from 'vitest';
import { toEffective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import type { Source } from '../../../src/core/contracts.js';
import type { SessionEvent, SessionState } from '../../../src/core/session.js';
import type { FileParser } from '../../../src/sources/internal/file-parser.js';
import type { SourceCtx } from '../../../src/sources/internal/options.js';
import { reduceSession, type SessionScopedEvent } from '../../../src/streams/session-reducer.js';

/** Shared by the claude/codex/pi tests: fixtures, a ctx on a temp HOME, the real fold over collected events. */

export const FIXTURES = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

export type Diagnostic = Extract<SessionEvent, { type: 'diagnostic' }>;

/** Copies `fixtures/<agent>/` (a fake-HOME subtree) into `home`. */
export const installFixture = (agent: 'claude' | 'codex' | 'pi', home: string): Promise<void> => cp(`${FIXTURES}${agent}`, home, { recursive: true });

export const makeCtx = (env: Record<string, string>, extra: Partial<SourceCtx> = {}): SourceCtx => ({
  config: toEffective(configSchema.parse({}), env).config,
  env,
  scheduler: asyncScheduler,
  now: () => asyncScheduler.now(),
  log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  platform: 'linux',
  ...extra,
});

/** Folds events per session id with the real reducer (removed sessions are absent). */
export const foldById = (events: readonly SessionEvent[]): Map<string, SessionState> => {
  const map = new Map<string, SessionState>();
  for (const event of events) {
    if (event.type === 'ready' || event.type === 'diagnostic') continue;
    const next = reduceSession(map.get(event.sessionId), event as SessionScopedEvent);
    if (next) map.set(event.sessionId, next);
    else map.delete(event.sessionId);
  }
  return map;
};

export const diagnosticsOf = (events: readonly SessionEvent[]): Diagnostic[] => events.filter((e): e is Diagnostic => e.type === 'diagnostic');

/** Pure parser run: every line of a fixture file (a trailing partial line is not a line yet). */
export const parseFile = async (parser: FileParser, file: string): Promise<SessionEvent[]> => {
  const text = await readFile(file, 'utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const events = [...parser.start()];
  for (const line of complete.split('\n').slice(0, -1)) events.push(...parser.line(Buffer.from(line)));
  return events;
};

export interface Run {
  readonly events: SessionEvent[];
  readonly errors: unknown[];
  readonly done: () => boolean;
  readonly subscription: Subscription;
  readonly sessions: () => Map<string, SessionState>;
  readonly isReady: () => boolean;
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
  return {
    events,
    errors,
    done: () => complete,
    subscription,
    sessions: () => foldById(events),
    isReady: () => events.some((e) => e.type === 'ready'),
  };
};

/** Bounded poll for a real file-system effect (watch events take a few ms); never a fixed sleep. */
export const waitFor = async (what: string, condition: () => boolean, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};
