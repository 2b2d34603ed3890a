import { BehaviorSubject, Subject, VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { CliIo } from '../../src/core/io.js';
import type { SessionsState } from '../../src/core/contracts.js';
import type { SessionEvent } from '../../src/core/session.js';
import type { StartSources } from '../../src/search/catch-up.js';
import { createLiveIndex } from '../../src/search/live.js';
import type { PipelineFrame } from '../../src/streams/frames.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const state = (ready: boolean): SessionsState => ({ sessions: new Map(), diagnostics: {}, ready });
const said = (sessionId: string, text: string): SessionEvent => ({ type: 'turn', agent: 'claude', sessionId, role: 'user', at: Date.parse('2026-11-30T10:00:00Z'), text });

/**
 * The sources of the index's catch-up, held where the test says: they read the history (its one
 * message, through `tap`) when started, and say they are done only when `finish` is called.
 */
const heldSources = () => {
  const frames = new Subject<PipelineFrame>();
  let started!: () => void;
  const startedOnce = new Promise<void>((resolve) => (started = resolve));
  let stopped = false;
  const startSources: StartSources = async (_io, _loaded, options) => {
    options.tap(said('history', 'what the history said: kingfisher'));
    started();
    return { pipeline: { frame$: frames }, stop: async () => void (stopped = true) };
  };
  return {
    startSources,
    started: startedOnce,
    finish: () => frames.next({ state: state(true) } as PipelineFrame),
    stopped: () => stopped,
  };
};

let temp: TempHome | undefined;
afterEach(async () => {
  await temp?.cleanup();
  temp = undefined;
});

describe('the live index catches up after the first listing', () => {
  it('takes nothing while the first discovery runs, starts reading once the listing is out, and a search meanwhile answers what it holds so far', async () => {
    temp = await makeTempHome('agentwatch-live-index-');
    const io = { env: temp.env, platform: 'linux' } as unknown as CliIo;
    const loaded = await loadConfig(temp.env, { write: false });
    const scheduler = new VirtualTimeScheduler();
    const sources = heldSources();
    const index = createLiveIndex(io, loaded, sources.startSources, scheduler, quiet);
    const states = new BehaviorSubject(state(false));
    index.follow(states);
    const found = async (word: string): Promise<string[]> => (await index.search(word, { limit: 10 })).map((r) => r.session_id);

    // The first discovery: what it reads is not indexed by the monitor, and no catch-up runs yet.
    index.tap(said('discovered', 'read during discovery: heron'));
    scheduler.flush();
    expect(index.indexing()).toBe(false);

    states.next(state(true));
    scheduler.flush();
    await sources.started;
    expect(index.indexing()).toBe(true);
    // From the catch-up's start, what the monitor reads is indexed as it comes.
    index.tap(said('live', 'appended while catching up: wagtail'));

    // A search while the catch-up still reads waits a while, then answers with what is indexed so far.
    const meanwhile = found('kingfisher');
    scheduler.flush();
    expect(await meanwhile).toEqual(['history']);
    expect(index.indexing()).toBe(true);

    sources.finish();
    await vi.waitFor(() => expect(index.indexing()).toBe(false));
    expect(sources.stopped()).toBe(true);
    expect(await found('kingfisher')).toEqual(['history']);
    expect(await found('wagtail')).toEqual(['live']);
    // Read during the discovery, before the catch-up began: the catch-up's own read covers it (here
    // the held sources never read it again), never the monitor's tap.
    expect(await found('heron')).toEqual([]);
    await index.close();
  });

  it('a search before the first listing starts the catch-up at once; closing stops a catch-up under way', async () => {
    temp = await makeTempHome('agentwatch-live-index-');
    const io = { env: temp.env, platform: 'linux' } as unknown as CliIo;
    const loaded = await loadConfig(temp.env, { write: false });
    const scheduler = new VirtualTimeScheduler();
    const sources = heldSources();
    const index = createLiveIndex(io, loaded, sources.startSources, scheduler, quiet);
    index.follow(new BehaviorSubject(state(false)));

    const early = index.search('kingfisher', { limit: 10 });
    await sources.started;
    scheduler.flush();
    expect((await early).map((r) => r.session_id)).toEqual(['history']);

    // The sources never finish by themselves: closing must not wait for them.
    await index.close();
    expect(sources.stopped()).toBe(true);
  });
});
