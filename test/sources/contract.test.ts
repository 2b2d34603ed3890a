import { cp, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAgentKind, type AgentKind } from '../../src/core/agents.js';
import type { Source } from '../../src/sources/contracts.js';
import { cursorDbPath } from '../../src/sources/cursor/paths.js';
import { sources } from '../../src/sources/index.js';
import { sessionEventSchema } from '../../src/sources/internal/state-schema.js';
import { gooseDbPath } from '../../src/sources/goose/paths.js';
import { kiloDbPath } from '../../src/sources/kilo/paths.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { FIXTURES, makeCtx, useFixtureHome, waitFor } from '../helpers/source-harness.js';
import { buildFixtureDb, crushFixtureDbPath, type SqliteFixture } from './sqlite/helpers.js';

/**
 * The shared compliance check every registered source must pass on the fixture HOME: every
 * agent's fixtures installed together at the agents' real paths (junk and partial lines
 * included), the SQLite agents' databases built from their fixture SQL.
 */

/** Handles that keep a process alive: watchers, timers, polling. */
const WATCH_HANDLES = new Set(['FSEventWrap', 'StatWatcher', 'Timeout', 'Immediate']);
const liveHandles = (): number => process.getActiveResourcesInfo().filter((r) => WATCH_HANDLES.has(r)).length;

/** The fixtures' own time (2026-03-10T10:15Z), so time windows such as cursor's 48 h hold them. */
const FIXTURE_NOW = 1773137700000;

/** Where each SQLite agent keeps its database, and how many sessions its fixture data holds. */
const SQLITE_FIXTURES: Readonly<Record<SqliteFixture, { readonly dbPath: (env: Record<string, string>) => string; readonly sessions: number }>> = {
  opencode: { dbPath: (env) => opencodeDbPath(env), sessions: 5 },
  kilo: { dbPath: (env) => kiloDbPath(env), sessions: 4 },
  cursor: { dbPath: (env) => cursorDbPath(env, 'linux'), sessions: 3 },
  crush: { dbPath: (env) => crushFixtureDbPath(env), sessions: 4 },
  goose: { dbPath: (env) => gooseDbPath(env, 'linux'), sessions: 4 },
};
const isSqliteFixture = (agent: string): agent is SqliteFixture => agent in SQLITE_FIXTURES;

/**
 * Sources known to hold a handle while watching this HOME: directory watches (JSONL sources) or
 * a poll timer (SQLite sources). The others may poll on a timer that is idle at that moment.
 */
const ALWAYS_HOLD_HANDLES: ReadonlySet<AgentKind> = new Set(['claude', 'codex', 'pi', 'opencode', 'kilo', 'cursor', 'crush', 'goose']);

const installAllFixtures = async (env: Record<string, string>): Promise<void> => {
  for (const name of await readdir(FIXTURES)) {
    if (!isAgentKind(name)) continue;
    if (isSqliteFixture(name)) {
      const file = SQLITE_FIXTURES[name].dbPath(env);
      await mkdir(path.dirname(file), { recursive: true });
      buildFixtureDb(file, name).close();
    } else {
      await cp(path.join(FIXTURES, name), env.HOME ?? '', { recursive: true });
    }
  }
};

describe.each(Object.entries(sources) as [AgentKind, Source][])('source contract: %s', (agent, source) => {
  const fx = useFixtureHome(`agentwatch-contract-${agent}-`, (home) => installAllFixtures(home.env));

  it('one-shot: only schema-valid events, never an error on junk, one ready, then completes', async () => {
    const run = fx.start(source, makeCtx(fx.home.env, { watch: false, now: () => FIXTURE_NOW }));
    await waitFor(`${agent} one-shot completion`, () => run.done() || run.errors.length > 0, 15_000);
    expect(run.errors).toEqual([]);
    const invalid = run.events.flatMap((event) => {
      const parsed = sessionEventSchema.safeParse(event);
      return parsed.success ? [] : [{ event, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }];
    });
    expect(invalid).toEqual([]);
    expect(run.events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent }]);
    expect(run.events.every((e) => e.agent === agent)).toBe(true);
    // Every session a source found is a session it emitted events for; none may be empty-handed.
    expect(run.sessions().size).toBeGreaterThan(0);
    if (isSqliteFixture(agent)) expect(run.sessions().size).toBe(SQLITE_FIXTURES[agent].sessions);
  });

  it('watching: ready once, and unsubscribing closes every watcher and timer', async () => {
    const baseline = liveHandles();
    const run = fx.start(source, makeCtx(fx.home.env, { now: () => FIXTURE_NOW }));
    await waitFor(`${agent} ready`, () => run.isReady() || run.errors.length > 0, 15_000);
    expect(run.errors).toEqual([]);
    expect(run.done()).toBe(false);
    // For these the check below is known to be able to fail: unsubscribing must release something.
    // (Counted after ready, not against the baseline: another test's timer may expire meanwhile.)
    const during = liveHandles();
    run.subscription.unsubscribe();
    if (ALWAYS_HOLD_HANDLES.has(agent)) await waitFor(`${agent} released a handle`, () => liveHandles() < during, 5_000);
    await waitFor(`${agent} handles released`, () => liveHandles() <= baseline, 5_000);
    expect(run.events.filter((e) => e.type === 'ready')).toHaveLength(1);
  });
});
