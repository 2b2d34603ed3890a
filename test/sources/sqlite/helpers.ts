import { AGENT_LABEL } from '../../../src/sources/agents.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { asyncScheduler, scan, tap, type SchedulerLike, type Subscription } from 'rxjs';
import { toEffective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import type { Ctx, Source } from '../../../src/sources/contracts.js';
import type { SessionEvent, SessionState } from '../../../src/core/session.js';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import type { SourceCtx } from '../../../src/sources/internal/options.js';
import { persistCache } from '../../../src/sources/internal/persist-cache.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { crushRegistryPath } from '../../../src/sources/crush/paths.js';
import { openFamilyReader } from '../../../src/sources/sqlite/opencode-family/reader.js';
import { createSqlitePoller } from '../../../src/sources/sqlite/poller.js';
import { reduceSession } from '../../../src/streams/reduce-session.js';
import { initialFoldState, reduceSessions } from '../../../src/streams/sessions-reducer.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures');

export type SqliteFixture = 'opencode' | 'kilo' | 'cursor' | 'crush' | 'goose';

/** The project Crush's fixture database belongs to, under the test's HOME. */
export const crushFixtureProject = (env: Record<string, string>): string => path.join(env.HOME ?? '', 'work', 'bakery');

/**
 * Where Crush's fixture database goes: the fixture project's `.crush/crush.db`, which this names
 * in Crush's registry (`projects.json`, written here), as Crush does when it starts in a project.
 */
export const crushFixtureDbPath = (env: Record<string, string>): string => {
  const project = crushFixtureProject(env);
  const registry = crushRegistryPath(env, 'linux');
  mkdirSync(path.dirname(registry), { recursive: true });
  writeFileSync(registry, JSON.stringify({ projects: [{ path: project, data_dir: path.join(project, '.crush'), last_accessed: '2026-03-10T10:00:00Z' }] }, null, 2));
  return path.join(project, '.crush', 'crush.db');
};

/** A fixture SQL file: the 1.x schema and rows, or (opencode) the 2.x ones of fixtures/opencode/v2-*.sql. */
export type FixtureSqlFile = 'schema' | 'data' | 'v2-schema' | 'v2-data' | 'v2-upgraded';

export const fixtureSql = (agent: SqliteFixture, file: FixtureSqlFile): string =>
  readFileSync(path.join(FIXTURES, agent, `${file}.sql`), 'utf8');

/**
 * Build a real database file from the fixture SQL. `wal` switches it to WAL (as the agents run it);
 * the returned connection stays open for the test to write through (close it in cleanup).
 */
export const buildFixtureDb = (file: string, agent: SqliteFixture, options: { wal?: boolean; data?: boolean } = {}): Database => {
  const db = new BetterSqlite3(file);
  if (options.wal ?? true) db.pragma('journal_mode = WAL');
  db.exec(fixtureSql(agent, 'schema'));
  if (options.data ?? true) db.exec(fixtureSql(agent, 'data'));
  return db;
};

export const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A Ctx on the given env; `now` fixed unless a scheduler-driven clock is wanted. */
export const makeCtx = (
  env: Record<string, string>,
  options: { now?: number; scheduler?: SchedulerLike; platform?: NodeJS.Platform } = {},
): Ctx => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const fixedNow = options.now;
  return {
    config: toEffective(configSchema.parse({}), env).config,
    env,
    scheduler,
    now: fixedNow === undefined ? () => scheduler.now() : () => fixedNow,
    log: silentLog,
    platform: options.platform ?? 'linux',
  };
};

export interface Collected {
  readonly events: SessionEvent[];
  readonly subscription: Subscription;
  readonly errors: unknown[];
}

export const collect = (source: Source, ctx: Ctx): Collected => {
  const events: SessionEvent[] = [];
  const errors: unknown[] = [];
  const subscription = source(ctx).subscribe({ next: (event) => events.push(event), error: (error: unknown) => errors.push(error) });
  return { events, subscription, errors };
};

/** Bounded wait for something a real poll produces (never a fixed sleep). */
export const waitFor = async (predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

export const ofType = <T extends SessionEvent['type']>(events: readonly SessionEvent[], type: T): Extract<SessionEvent, { type: T }>[] =>
  events.filter((event): event is Extract<SessionEvent, { type: T }> => event.type === type);

export const forSession = (events: readonly SessionEvent[], sessionId: string): SessionEvent[] =>
  events.filter((event) => 'sessionId' in event && event.sessionId === sessionId);

/** Fold one session's events with the real reducer (what the pipeline does with a replay). */
export const foldSession = (events: readonly SessionEvent[], sessionId: string): SessionState | undefined => {
  let state: SessionState | undefined;
  for (const event of events) {
    if (event.type === 'ready' || event.type === 'diagnostic' || event.type === 'progress' || event.sessionId !== sessionId) continue;
    state = reduceSession(state, event);
  }
  return state;
};

/** The activity a session's replay shows at `now`. */
export const activityAt = (events: readonly SessionEvent[], sessionId: string, now: number): string => {
  const state = foldSession(events, sessionId);
  return state ? deriveActivity(state, now) : 'absent';
};

/**
 * A real database file at `file` made of `scripts` (schema, rows, then any alteration), in WAL
 * mode as the agents keep it, and one poll of it by the OpenCode-family reader at `now`.
 */
export const pollFamilyDb = (file: string, agent: 'opencode' | 'kilo', scripts: readonly string[], now: number): SessionEvent[] => {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  for (const sql of scripts) if (sql) db.exec(sql);
  db.close();
  const poller = createSqlitePoller({ agent, label: AGENT_LABEL[agent], dbPath: file, openReader: openFamilyReader({ agent, label: AGENT_LABEL[agent], resumeCommand: (id) => `${agent} -s ${id}` }) });
  try {
    return [...poller.poll(now)];
  } finally {
    poller.close();
  }
};

/** What the listing shows of a session's spend and messages. */
export const spendOf = (events: readonly SessionEvent[], sessionId: string) => {
  const state = foldSession(events, sessionId);
  return {
    tokens: state?.tokens,
    cost: Number((state?.recordedCostUsd ?? 0).toFixed(6)),
    userMessages: state?.userMessages,
    assistantMessages: state?.assistantMessages,
  };
};

/** One one-shot pass of an OpenCode source with the discovery cache wired as the composition root wires it. */
export const passWithCache = async (source: Source, ctx: SourceCtx): Promise<SessionEvent[]> => {
  const cache = openDiscoveryCache(ctx.env);
  const events: SessionEvent[] = [];
  let done = false;
  // One subscription: the one-shot poll emits everything synchronously while it is made.
  // A SourceCtx is a Ctx that may carry the cache (what the composition root hands every source).
  const sourceCtx: SourceCtx = { ...ctx, cache, watch: false };
  const state$ = source(sourceCtx).pipe(
    tap({ next: (e) => events.push(e), complete: () => (done = true) }),
    scan((state, event) => reduceSessions(state, [event]).state, initialFoldState(['opencode'])),
  );
  const stop = persistCache(state$, cache, ctx.scheduler);
  await waitFor(() => done, 'pass');
  await stop();
  cache.close();
  return events;
};
