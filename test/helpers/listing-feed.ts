import { isObservable, map, of, tap, type Observable } from 'rxjs';
import type { AgentKind } from '../../src/core/agents.js';
import type { SessionsState } from '../../src/core/contracts.js';
import type { SessionNames } from '../../src/config/session-names.js';
import type { ListingFeed } from '../../src/sinks/http/store.js';
import type { ListedRead } from '../../src/sinks/tui/model.js';
import { ALL_SESSIONS, type PipelineFrame } from '../../src/streams/frames.js';
import { createListing, type ListingFrame } from '../../src/streams/listing.js';
import type { VisibilityOptions } from '../../src/streams/visibility.js';

/** Frames made by a test, fed to a real listing the way the pipeline feeds its own. */
export const feedOf = (frames: PipelineFrame | Observable<PipelineFrame>, visibility: VisibilityOptions): ListingFeed => {
  const listing = createListing({ visibility: () => visibility });
  const frame$ = (isObservable(frames) ? frames : of(frames)).pipe(tap((frame) => listing.push(frame)));
  return { frame$, listing, visibility };
};

/** The TUI's read of a listing over `state` at `now`, with the view's window and the frame's settings. */
export const tuiRead = (
  state: SessionsState,
  view: { readonly windowMinutes: number },
  ctx: { readonly names: SessionNames; readonly excludeCwdSubstrings: readonly string[]; readonly agents: ReadonlySet<AgentKind> },
  now: number,
): ListedRead => {
  const listing = createListing({ visibility: () => ({ windowMinutes: view.windowMinutes, excludeCwdSubstrings: ctx.excludeCwdSubstrings, agents: ctx.agents }), names: ctx.names });
  listing.push({ state, now, activities: new Map(), touched: ALL_SESSIONS });
  listing.refresh();
  return { state, sessions: listing.sessions(), counts: listing.counts() };
};

/** A test's states as the frames the pipeline would emit, each at the clock's time. */
export const framesOf = (state$: Observable<SessionsState>, now: () => number): Observable<ListingFrame> =>
  state$.pipe(map((state): ListingFrame => ({ state, now: now(), activities: new Map(), touched: ALL_SESSIONS })));
