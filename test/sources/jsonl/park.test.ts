import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../../src/core/io.js';
import type { SessionEvent, SessionState } from '../../../src/core/session.js';
import { startSourcePipeline } from '../../../src/app/pipeline-setup.js';
import { loadConfig } from '../../../src/config/load.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { openDiscoveryCache, type DiscoveryCache } from '../../../src/sources/internal/cache.js';
import { createFileTracker } from '../../../src/sources/internal/file-tracker.js';
import type { FileTracker } from '../../../src/sources/internal/file-tracker-types.js';
import type { TempHome } from '../../helpers/temp-home.js';
import { makeTempHome } from '../../helpers/temp-home.js';
import { foldById, installFixture, waitFor } from '../../helpers/source-harness.js';

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
const transcriptOf = (home: string): string => path.join(home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
// The fixture's transcript ends in the middle of a line (as one being written does): this completes it.
const REST_OF_LAST_LINE = '"}}\n';
const prompt = (text: string, at: string): string => `${JSON.stringify({ type: 'user', sessionId: SID, message: { role: 'user', content: text }, timestamp: at })}\n`;

/**
 * Parking (idle memory after a first start): once a cold start's sessions are persisted,
 * a file at rest gives up its parser and resumes from the persisted state when it grows, as after
 * a warm start; what the session ends up as is the same as if the parser had been kept.
 */
describe('parking the parser of a file at rest', () => {
  let home: TempHome;
  let cache: DiscoveryCache;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-park-');
    await installFixture('claude', home.home);
    cache = openDiscoveryCache(home.env);
  });
  afterEach(async () => {
    cache.close();
    await home.cleanup();
  });

  const tracked = (): { tracker: FileTracker; events: SessionEvent[]; parsers: { resumed: boolean; restored: SessionState | undefined }[] } => {
    const events: SessionEvent[] = [];
    const parsers: { resumed: boolean; restored: SessionState | undefined }[] = [];
    const tracker = createFileTracker({
      agent: 'claude',
      createParser: (file, sessionId, resumed, restored) => {
        parsers.push({ resumed, restored });
        return createClaudeParser(file, { kind: 'main', sessionId }, resumed, restored);
      },
      emit: (event) => events.push(event),
      cache,
      sideMeta: () => undefined,
    });
    return { tracker, events, parsers };
  };

  /** What the persister does after a first discovery: the row, then the lazy twin the fold holds instead. */
  const persistedTwin = (state: SessionState): SessionState => {
    const cp = state.checkpoint!;
    cache.write([{ path: cp.path, agent: state.agent, sessionId: state.sessionId, offset: cp.offset, size: cp.size, mtimeMs: cp.mtimeMs, state }], []);
    return cache.lazyTwin(state, cp)!;
  };

  it('resumes from the persisted state on the next append and ends where the kept parser would have', async () => {
    const file = transcriptOf(home.home);
    const parked = tracked();
    await parked.tracker.sync(file, SID);
    const twin = persistedTwin(foldById(parked.events).get(SID)!);
    expect(parked.tracker.park(twin)).toBe(true);
    // A second park of the same file finds no parser to drop.
    expect(parked.tracker.park(twin)).toBe(false);

    const kept = tracked();
    await kept.tracker.sync(file, SID);
    await appendFile(file, REST_OF_LAST_LINE + prompt('one more', '2026-03-10T11:00:00.000Z'));
    await parked.tracker.sync(file, SID);
    await kept.tracker.sync(file, SID);

    expect(parked.parsers).toEqual([
      { resumed: false, restored: undefined },
      { resumed: true, restored: twin },
    ]);
    expect(kept.parsers).toHaveLength(1);
    const after = parked.events.slice(parked.events.findLastIndex((e) => e.type === 'checkpoint' && e.checkpoint.offset === twin.checkpoint!.offset) + 1);
    expect(after.filter((e) => e.type === 'turn').map((e) => e.type === 'turn' && e.text)).toEqual(['', 'one more']);
    // The fold that swapped in the twin, then took the appended events, is the fold of the kept parser.
    const { checkpoint: parkedCp, ...parkedState } = foldById([{ type: 'restore', agent: 'claude', sessionId: SID, state: twin }, ...after]).get(SID)!;
    const { checkpoint: keptCp, ...keptState } = foldById(kept.events).get(SID)!;
    expect(parkedState).toEqual(keptState);
    expect(parkedCp?.offset).toBe(keptCp?.offset);
  });

  it('keeps the parser of a file read past the persisted checkpoint, and of a file it does not track', async () => {
    const file = transcriptOf(home.home);
    const { tracker, events } = tracked();
    await tracker.sync(file, SID);
    const twin = persistedTwin(foldById(events).get(SID)!);
    await appendFile(file, prompt('one more', '2026-03-10T11:00:00.000Z'));
    await tracker.sync(file, SID);
    expect(tracker.park(twin)).toBe(false);
    expect(tracker.park({ ...twin, checkpoint: { ...twin.checkpoint!, path: `${file}.other` } })).toBe(false);
    expect(tracker.park({ ...twin, agent: 'codex' })).toBe(false);
  });

  it('a monitor that started without a cache parks its files once it releases their details, and still follows them', async () => {
    const loaded = await loadConfig(home.env, { write: true });
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const io: CliIo = { argv: [], env: home.env, platform: 'linux', cwd: home.home, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, version: '0.0.0-test' };
    const { ctx, pipeline, stop, releaseDetails } = await startSourcePipeline(io, loaded, { agents: ['claude'], demo: false, watch: true, log: quiet });
    try {
      await firstValueFrom(pipeline.frame$.pipe(filter((f) => f.state.ready)));
      const offered: SessionState[] = [];
      const offers = ctx.restorable$!.subscribe((states) => offered.push(...states));
      const released = releaseDetails();
      offers.unsubscribe();
      // Every released session is offered to the sources, each at the checkpoint its row holds.
      expect(released).toBeGreaterThan(0);
      expect(offered).toHaveLength(released);
      expect(offered.map((s) => s.sessionId)).toContain(SID);
      expect(offered.every((s) => s.checkpoint !== undefined)).toBe(true);
      let latest: SessionState | undefined;
      const sub = pipeline.state$.subscribe((s) => (latest = [...s.sessions.values()].find((x) => x.sessionId === SID)));
      await appendFile(transcriptOf(home.home), REST_OF_LAST_LINE + prompt('after the release', new Date().toISOString()));
      await waitFor('the appended prompt', () => latest?.recentMessages.at(-1)?.text === 'after the release');
      sub.unsubscribe();
    } finally {
      await stop();
    }
  });
});
