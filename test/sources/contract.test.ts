import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAgentKind } from '../../src/core/agents.js';
import type { Source } from '../../src/core/contracts.js';
import { sources } from '../../src/sources/index.js';
import { sessionEventSchema } from '../../src/sources/internal/state-schema.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { FIXTURES, makeCtx, start, waitFor, type Run } from './jsonl/harness.js';

/**
 * The shared compliance check every registered source must pass on the fixture HOME (every
 * agent's fixtures installed together, junk and partial lines included).
 */

/** Handles that keep a process alive: watchers, timers, polling. */
const WATCH_HANDLES = new Set(['FSEventWrap', 'StatWatcher', 'Timeout', 'Immediate']);
const DIRECTORY_WATCHERS = new Set(['claude', 'codex', 'pi']);
const liveHandles = (): number => process.getActiveResourcesInfo().filter((r) => WATCH_HANDLES.has(r)).length;

const installAllFixtures = async (home: string): Promise<void> => {
  for (const name of await readdir(FIXTURES)) {
    if (isAgentKind(name)) await cp(path.join(FIXTURES, name), home, { recursive: true });
  }
};

describe.each(Object.entries(sources) as [string, Source][])('source contract: %s', (agent, source) => {
  let home: TempHome;
  let run: Run | undefined;
  beforeEach(async () => {
    home = await makeTempHome(`agentwatch-contract-${agent}-`);
    await installAllFixtures(home.home);
  });
  afterEach(async () => {
    run?.subscription.unsubscribe();
    run = undefined;
    await home.cleanup();
  });

  it('one-shot: only schema-valid events, never an error on junk, one ready, then completes', async () => {
    run = start(source, makeCtx(home.env, { watch: false }));
    await waitFor(`${agent} one-shot completion`, () => run!.done() || run!.errors.length > 0, 15_000);
    expect(run.errors).toEqual([]);
    const invalid = run.events.flatMap((event) => {
      const parsed = sessionEventSchema.safeParse(event);
      return parsed.success ? [] : [{ event, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) }];
    });
    expect(invalid).toEqual([]);
    expect(run.events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent }]);
    expect(run.events.every((e) => e.agent === agent)).toBe(true);
  });

  it('watching: ready once, and unsubscribing closes every watcher and timer', async () => {
    const baseline = liveHandles();
    run = start(source, makeCtx(home.env));
    await waitFor(`${agent} ready`, () => run!.isReady() || run!.errors.length > 0, 15_000);
    expect(run.errors).toEqual([]);
    expect(run.done()).toBe(false);
    // The JSONL sources always hold directory watches on the fixture HOME, so for them the check
    // below is known to be able to fail (other sources may poll on a timer that is idle right now).
    if (DIRECTORY_WATCHERS.has(agent)) expect(liveHandles()).toBeGreaterThan(baseline);
    run.subscription.unsubscribe();
    await waitFor(`${agent} handles released`, () => liveHandles() <= baseline, 5_000);
    expect(run.events.filter((e) => e.type === 'ready')).toHaveLength(1);
  });
});
