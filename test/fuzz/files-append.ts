import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { createGrokReader } from '../../src/sources/grok/session-reader.js';
import type { DiscoveryCache } from '../../src/sources/internal/cache.js';
import type { ReadOptions } from '../../src/sources/internal/read-lines.js';
import { cachedFileOf, foldById } from '../helpers/source-harness.js';
import type { TempHome } from '../helpers/temp-home.js';
import type { FuzzAgent, Seed } from './files-agents.js';
import { comparableAll } from './files-checks.js';
import { classifyIn, specFor, trackerOf } from './files-passes.js';
import { randomCuts } from './files-mutate.js';
import { randInt, type Rng } from './prng.js';

/**
 * A transcript written to disk in pieces, synced after each as the live source syncs on a watch
 * event (the engine's file tracker; grok's session reader), for the incremental properties.
 */

/** `bytes` cut into 2-8 appends anywhere: mid-line, mid-character (an empty file is one empty append: it is created). */
export const pieces = (rng: Rng, bytes: Buffer): Buffer[] => {
  const cuts = [0, ...randomCuts(rng, bytes.length, randInt(rng, 2, 8)), bytes.length];
  const parts = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end)).filter((piece) => piece.length > 0);
  return parts.length > 0 ? parts : [bytes];
};

/** Read options both sides of a comparison share: sometimes tiny read chunks (lines cross them), sometimes a small line cap. */
export const readOptionsOf = (rng: Rng, smallCap = true): ReadOptions => ({
  ...(rng() < 0.4 ? { chunkBytes: randInt(rng, 7, 600) } : {}),
  ...(smallCap && rng() < 0.3 ? { maxLineBytes: randInt(rng, 200, 3000) } : {}),
});

export interface Appending {
  readonly seed: Seed;
  /** The file's final content. */
  readonly bytes: Buffer;
  readonly file: string;
  /** grok: the session directory. */
  readonly dir?: string;
  readonly read: ReadOptions;
  /**
   * Decides, after each piece, whether the parser is parked where the file then ends
   * (file-tracker.ts `park`), its state persisted first in `cache` (one per test will do: rows are
   * by path, and every case has its own HOME).
   */
  readonly park?: { readonly at: (offset: number) => boolean; readonly cache: DiscoveryCache };
}

/** What a monitor at rest does (pipeline-setup's releaseDetails): persist the state, offer its twin to the source. */
const park = (events: readonly SessionEvent[], file: string, cache: DiscoveryCache, parkState: (state: SessionState) => boolean): void => {
  const state = [...foldById(events).values()].find((s) => s.checkpoint?.path === file);
  if (!state?.checkpoint) return;
  cache.write([cachedFileOf(state)], []);
  const twin = cache.lazyTwin(state, state.checkpoint);
  if (twin) parkState(twin);
};

/** The engine's tracker over `a.file`, fed `parts` one at a time (a whole file is one part). */
export const appendToTracker = async (agent: FuzzAgent, home: TempHome, a: Appending, parts: readonly Buffer[]): Promise<SessionEvent[]> => {
  // Parking persists the state first: only then a discovery cache (the live source needs none).
  const cache = a.park?.cache;
  const events: SessionEvent[] = [];
  const spec = specFor(agent, home, cache ? { cache } : {});
  const tracker = trackerOf(spec, (event) => events.push(event), cache, a.read);
  const sessionId = classifyIn(spec, a.file);
  await mkdir(path.dirname(a.file), { recursive: true });
  let written = 0;
  for (const part of parts) {
    await appendFile(a.file, part);
    written += part.length;
    await tracker.sync(a.file, sessionId);
    // The parser stands after the last complete line.
    if (cache && a.park?.at(a.bytes.lastIndexOf(0x0a, written - 1) + 1)) park(events, a.file, cache, tracker.park);
  }
  return events;
};

/** grok's reader over the session directory: summary and usage ledger first, then the transcript in `parts`. */
export const appendToGrok = async (a: Appending, parts: readonly Buffer[]): Promise<SessionEvent[]> => {
  const events: SessionEvent[] = [];
  const reader = createGrokReader((event) => events.push(event), undefined, a.read);
  const dir = a.dir as string;
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(a.seed.companions ?? {})) await writeFile(path.join(dir, name), content);
  for (const part of parts) {
    await appendFile(a.file, part);
    await reader.sync(dir);
  }
  return events;
};

type Comparable = ReturnType<typeof comparableAll>;

/** The sessions of a run in `home`, comparable with another home's (paths relative to the home). */
export const foldedIn = (events: readonly SessionEvent[], home: TempHome): Comparable =>
  JSON.parse(JSON.stringify(comparableAll(foldById(events))).replaceAll(home.root, '<root>')) as Comparable;

/**
 * grok's transcript has no times: each batch of new lines is stamped with the summary's time or
 * the file's mtime, on its last turn and tool only (session-reader.ts). Times therefore depend on
 * how the lines were batched, by design; everything else must agree.
 */
export const withoutTimes = (all: Comparable): Comparable =>
  Object.fromEntries(
    Object.entries(all).map(([id, s]) => [
      id,
      {
        ...s,
        lastActivityAt: 0,
        lastTurnAt: 0,
        lastFileWriteAt: 0,
        recentMessages: s.recentMessages.map((m) => ({ ...m, at: 0 })),
        recentTools: s.recentTools.map((t) => ({ ...t, at: 0 })),
        pendingTools: s.pendingTools.map((t) => ({ ...t, at: 0 })),
      },
    ]),
  );

/** The time a record carries (claude, codex, pi: `timestamp`; kimi: `time`), or undefined. */
const timeOfLine = (line: string): number | undefined => {
  const iso = /"timestamp":"([^"]+)"/.exec(line)?.[1];
  const at = iso !== undefined ? Date.parse(iso) : Number(/"time":(\d+)/.exec(line)?.[1] ?? Number.NaN);
  return Number.isFinite(at) ? at : undefined;
};

/** Records written this close together are one write of the agent's (a prompt and its mirror, a fork's copy of its parent, a trigger flag and its message). */
export const REST_MS = 1_000;

/**
 * True when the agent paused at `offset` (a line boundary): the record before and the one after
 * carry times at least REST_MS apart (or nothing was read yet). What a monitor parks is a file at
 * rest; a parser resumed inside one write of the agent's would not know what its first records
 * said about the next (a known gap: see the report).
 */
export const atRest = (bytes: Buffer, offset: number): boolean => {
  if (offset === 0) return true;
  const before = bytes.lastIndexOf(0x0a, offset - 2) + 1;
  const next = bytes.indexOf(0x0a, offset);
  const last = timeOfLine(bytes.toString('utf8', before, offset));
  const following = next === -1 ? undefined : timeOfLine(bytes.toString('utf8', offset, next));
  return last !== undefined && following !== undefined && following - last >= REST_MS;
};

/**
 * Claude: true when a `summary` record before `offset` waits for its leaf message (Claude Code
 * 1.0.x starts a continued transcript with it). A parser resumed past it does not know the
 * summary (a known gap: see the report).
 */
export const claudeSummaryPending = (bytes: Buffer, offset: number): boolean => {
  const text = bytes.toString('utf8', 0, offset);
  const leaves = [...text.matchAll(/"type":"summary"[^\n]*?"leafUuid":"([^"]+)"/g)].map((m) => m[1]);
  return leaves.some((leaf) => !text.includes(`"uuid":"${leaf}"`));
};
