import { cp, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { asyncScheduler, scan, share, type Subscription } from 'rxjs';
import { afterEach, beforeEach } from 'vitest';
import { toEffective } from '../../src/config/effective.js';
import { configSchema } from '../../src/config/schema.js';
import type { AgentKind } from '../../src/core/agents.js';
import type { Source } from '../../src/sources/contracts.js';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { openDiscoveryCache, type CachedFile } from '../../src/sources/internal/cache.js';
import type { FileParser } from '../../src/sources/internal/file-parser.js';
import type { SourceCtx } from '../../src/sources/internal/options.js';
import { persistCache } from '../../src/sources/internal/persist-cache.js';
import { reduceSession, type SessionScopedEvent } from '../../src/streams/reduce-session.js';
import { initialFoldState, reduceSessions } from '../../src/streams/sessions-reducer.js';
import { makeTempHome, type TempHome } from './temp-home.js';

/**
 * Shared by the source tests: fixtures, a ctx on a temp HOME, a run that collects what a real
 * source emits (real files, real watchers), and the real reducer folded over it.
 */

export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export type Diagnostic = Extract<SessionEvent, { type: 'diagnostic' }>;

/** The agents whose fixtures are a fake-HOME subtree (the SQLite ones are SQL, see sources/sqlite/helpers.ts). */
export type FileFixtureAgent = Exclude<AgentKind, 'opencode' | 'kilo' | 'cursor' | 'crush' | 'goose'>;

/** Copies `fixtures/<agent>/` (a fake-HOME subtree) into `home`. */
export const installFixture = (agent: FileFixtureAgent, home: string): Promise<void> => cp(`${FIXTURES}${agent}`, home, { recursive: true });

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
  // The pipeline's own fold (sub-agent usage rolls up into parents there), keyed by session id.
  const { state } = reduceSessions(initialFoldState([]), events);
  return new Map([...state.sessions.values()].map((s) => [s.sessionId, s]));
};

/** Folds the events of one session with the real reducer (pure; for records-in, activity-out tests). */
export const foldEvents = (events: readonly SessionEvent[]): SessionState | undefined => {
  let state: SessionState | undefined;
  for (const event of events) {
    if (event.type === 'ready' || event.type === 'diagnostic') continue;
    state = reduceSession(state, event as SessionScopedEvent);
  }
  return state;
};

export const diagnosticsOf = (events: readonly SessionEvent[]): Diagnostic[] => events.filter((e): e is Diagnostic => e.type === 'diagnostic');

/** The discovery-cache row for a checkpointed state (to seed a warm start). */
export const cachedFileOf = (state: SessionState): CachedFile => {
  const cp = state.checkpoint;
  if (!cp) throw new Error(`session ${state.sessionId} has no checkpoint to cache`);
  return { path: cp.path, agent: state.agent, sessionId: state.sessionId, offset: cp.offset, size: cp.size, mtimeMs: cp.mtimeMs, state };
};

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
  /** Every session folded from the events so far (removed ones are absent). */
  readonly sessions: () => Map<string, SessionState>;
  readonly isReady: () => boolean;
  readonly diagnostics: () => Diagnostic[];
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
    diagnostics: () => diagnosticsOf(events),
  };
};

/** Bounded poll for a real file-system effect (watch events take a few ms); never a fixed sleep. */
export const waitFor = async (what: string, condition: () => boolean, timeoutMs = 8_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

export interface FixtureHome {
  /** This test's temp HOME (a fresh one per test). */
  readonly home: TempHome;
  /** Starts `source` on this HOME (`ctx` defaults to `makeCtx(home.env)`); unsubscribed after the test. */
  readonly start: (source: Source, ctx?: SourceCtx) => Run;
  /** One-shot (`watch: false`) run on `extra`'s ctx, resolved once the source completed. */
  readonly once: (source: Source, extra?: Partial<SourceCtx>) => Promise<Run>;
  /** Watching run on `extra`'s ctx, resolved once the source said `ready`. */
  readonly ready: (source: Source, extra?: Partial<SourceCtx>) => Promise<Run>;
}

/**
 * Registers the per-test setup the source tests share: a fresh temp HOME (with `fixtures/<agent>/`
 * installed when an agent is given, or prepared by `install`) before each test; every run started through it unsubscribed
 * and the HOME removed after each. Call at the top of a `describe`; its hooks run before the
 * describe's own, so those may already use `home`.
 */
export const useFixtureHome = (prefix: string, install?: FileFixtureAgent | ((home: TempHome) => Promise<void>)): FixtureHome => {
  let home: TempHome | undefined;
  const runs: Run[] = [];
  beforeEach(async () => {
    home = await makeTempHome(prefix);
    if (typeof install === 'function') await install(home);
    else if (install) await installFixture(install, home.home);
  });
  afterEach(async () => {
    for (const run of runs.splice(0)) run.subscription.unsubscribe();
    await home?.cleanup();
    home = undefined;
  });
  const current = (): TempHome => {
    if (!home) throw new Error('useFixtureHome: no temp HOME outside a test');
    return home;
  };
  const track = (source: Source, ctx: SourceCtx = makeCtx(current().env)): Run => {
    const run = start(source, ctx);
    runs.push(run);
    return run;
  };
  return {
    get home() {
      return current();
    },
    start: track,
    once: async (source, extra = {}) => {
      const run = track(source, makeCtx(current().env, { ...extra, watch: false }));
      await waitFor('completion', () => run.done());
      return run;
    },
    ready: async (source, extra = {}) => {
      const run = track(source, makeCtx(current().env, extra));
      await waitFor('ready', () => run.isReady());
      return run;
    },
  };
};

/**
 * One start of `source` as a one-shot command makes it: the discovery cache opened, one pass, the
 * states at a checkpoint written, the cache closed (which writes what else it kept).
 */
export const startWithCache = async (fx: FixtureHome, source: Source): Promise<Run> => {
  const cache = openDiscoveryCache(fx.home.env);
  try {
    const run = await fx.once(source, { cache });
    cache.write([...run.sessions().values()].filter((s) => s.checkpoint).map(cachedFileOf), []);
    return run;
  } finally {
    cache.close();
  }
};

/**
 * One one-shot pass of `source` with the discovery cache wired the way the composition root wires
 * it (the persister follows the fold, and writes on stop); returns its events.
 */
export const passWithCache = async (source: Source, ctx: SourceCtx): Promise<SessionEvent[]> => {
  const cache = openDiscoveryCache(ctx.env);
  const events: SessionEvent[] = [];
  let done = false;
  const withCache: SourceCtx = { ...ctx, cache, watch: false };
  const events$ = source(withCache).pipe(share());
  const state$ = events$.pipe(scan((state, event) => reduceSessions(state, [event]).state, initialFoldState([])));
  const stop = persistCache(state$, cache, ctx.scheduler);
  const sub = events$.subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
  await waitFor('pass', () => done);
  sub.unsubscribe();
  await stop();
  cache.close();
  return events;
};
