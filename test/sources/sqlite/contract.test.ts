import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Source } from '../../../src/core/contracts.js';
import { cursorDbPath } from '../../../src/sources/cursor/paths.js';
import { sources } from '../../../src/sources/index.js';
import { sessionEventSchema } from '../../../src/sources/internal/state-schema.js';
import { kiloDbPath } from '../../../src/sources/kilo/paths.js';
import { opencodeDbPath } from '../../../src/sources/opencode/paths.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { makeCtx, start, waitFor, type Run } from '../jsonl/harness.js';
import { buildFixtureDb, type SqliteFixture } from './helpers.js';

/**
 * The shared source contract (test/sources/contract.test.ts) applied to the registered SQLite
 * sources on a HOME where their databases exist: the shared test copies fixture folders, and these
 * fixtures are SQL from which the databases are built here.
 */
const WATCH_HANDLES = new Set(['FSEventWrap', 'StatWatcher', 'Timeout', 'Immediate']);
const liveHandles = (): number => process.getActiveResourcesInfo().filter((r) => WATCH_HANDLES.has(r)).length;

/** The fixtures' own time, so cursor's 48 h window holds them. */
const FIXTURE_NOW = 1773137700000;

const cases: readonly (readonly [SqliteFixture, (env: Record<string, string>) => string, number])[] = [
  ['opencode', (env) => opencodeDbPath(env), 5],
  ['kilo', (env) => kiloDbPath(env), 4],
  ['cursor', (env) => cursorDbPath(env, 'linux'), 3],
];

describe.each(cases)('source contract on a built database: %s', (agent, dbPath, sessions) => {
  const source: Source = sources[agent];
  let home: TempHome;
  let run: Run | undefined;
  beforeEach(async () => {
    home = await makeTempHome(`agentwatch-contract-${agent}-`);
    const file = dbPath(home.env);
    mkdirSync(path.dirname(file), { recursive: true });
    buildFixtureDb(file, agent).close();
  });
  afterEach(async () => {
    run?.subscription.unsubscribe();
    run = undefined;
    await home.cleanup();
  });

  it('one-shot: only schema-valid events for every fixture session, one ready, then completes', async () => {
    run = start(source, makeCtx(home.env, { watch: false, now: () => FIXTURE_NOW }));
    await waitFor(`${agent} one-shot completion`, () => run!.done() || run!.errors.length > 0, 15_000);
    expect(run.errors).toEqual([]);
    const invalid = run.events.flatMap((event) => {
      const parsed = sessionEventSchema.safeParse(event);
      return parsed.success ? [] : [{ event, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }];
    });
    expect(invalid).toEqual([]);
    expect(run.events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent }]);
    expect(run.events.every((e) => e.agent === agent)).toBe(true);
    expect(run.sessions().size).toBe(sessions);
  });

  it('watching: ready once, and unsubscribing stops the poll timer', async () => {
    const baseline = liveHandles();
    run = start(source, makeCtx(home.env, { now: () => FIXTURE_NOW }));
    await waitFor(`${agent} ready`, () => run!.isReady() || run!.errors.length > 0, 15_000);
    expect(run.errors).toEqual([]);
    expect(run.done()).toBe(false);
    expect(liveHandles()).toBeGreaterThan(baseline);
    run.subscription.unsubscribe();
    await waitFor(`${agent} handles released`, () => liveHandles() <= baseline, 5_000);
    expect(run.events.filter((e) => e.type === 'ready')).toHaveLength(1);
  });
});
