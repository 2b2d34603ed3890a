import { BehaviorSubject, distinctUntilChanged, ignoreElements, map, merge, Observable, Subject, type Subscription } from 'rxjs';
import type { SessionNames } from '../../config/session-names.js';
import type { SessionDetail, SessionState, SessionSummary } from '../../core/session.js';
import type { HistoryProgress } from '../../core/contracts.js';
import type { ApiStats } from '../../core/wire.js';
import type { ListingFrame, Listing as SessionListing } from '../../streams/listing.js';
import { needingAttention } from '../../core/diagnostics.js';
import { toDetail } from '../../streams/views.js';
import { activityRules } from '../../streams/activity.js';
import type { VisibilityOptions } from '../../streams/visibility.js';
import type { WorktreeLookup } from '../../streams/worktree.js';
import { degradedWire, onStorageChange, storageVersion } from '../../util/storage-health.js';

/** `GET /api/stats` (the type lives in core/wire.ts, shared with the web dashboard). */
export type { ApiStats } from '../../core/wire.js';

/** One listed session as served: its summary (custom name applied) and that summary's JSON text. */
export interface ServedSession {
  readonly summary: SessionSummary;
  readonly json: string;
}

/** One consistent picture, custom names applied. Built at most once per change. */
export interface SessionsSnapshot {
  /** Grows with every change of the listing (a session added, changed or gone). */
  readonly version: number;
  /** Listed sessions, newest first, each with its JSON text serialised once per session version. */
  readonly sessions: readonly ServedSession[];
  /** `sessions` as summaries, same order. */
  readonly summaries: readonly SessionSummary[];
  /** The list as JSON text: the sessions' cached texts joined (once per snapshot, on first use). */
  readonly summariesJson: string;
  /** `summariesJson` as bytes: what GET /api/sessions sends. */
  readonly summariesBytes: Buffer;
  readonly stats: ApiStats;
  readonly find: (sessionId: string) => SessionDetail | undefined;
}

/** Sessions added or changed, and ids that left. */
export interface StoreChanges {
  readonly changed: readonly ServedSession[];
  readonly removed: readonly string[];
}

/** A new snapshot's stats and what changed in the listing since the snapshot before it. */
interface StoreUpdate {
  readonly changes: StoreChanges;
  readonly stats: ApiStats;
}

/** The API's view of the monitor: read the latest picture, follow changes, rename. */
export interface SessionStore {
  /** The listing brought up to date: work only for the sessions that changed since the last read. */
  readonly current: () => SessionsSnapshot;
  /** The latest snapshot on subscription, then one per change (events, a deadline, a rename). */
  readonly snapshot$: Observable<SessionsSnapshot>;
  /**
   * One update per new snapshot from subscription on (whoever made it: a change pushed by the
   * pipeline, a rename, a request), carrying the sessions changed since the previous snapshot.
   */
  readonly updates$: Observable<StoreUpdate>;
  /**
   * Persist a custom name ("" or undefined resets it) for any session id, known yet or not (it
   * shows once the session does); resolves to the name as now stored ("" when none).
   */
  readonly rename: (sessionId: string, name: string | undefined) => Promise<{ readonly session_id: string; readonly custom_name: string }>;
  /**
   * Brings the listing up to date now and drops what was built from older states (the ordered
   * list, the last snapshot): after states were replaced by equal ones (Pipeline.swapStates),
   * nothing keeps the replaced ones alive. The next read builds the snapshot again.
   */
  readonly settle: () => void;
  readonly close: () => void;
}

/** Persists one name and resolves to the whole names map as now stored (concurrent writers included). */
export type SaveName = (sessionId: string, name: string | undefined) => Promise<SessionNames>;

/** What the store serves from: the pipeline's listing, with details built on request. */
interface Listing {
  /** Emits when something may have changed. */
  readonly changes$: Observable<unknown>;
  readonly setNames: (names: SessionNames) => void;
  /** Brings the listing up to date; what changed reaches `onChanges` listeners. */
  readonly refresh: () => void;
  readonly onChanges: (listener: (changes: StoreChanges) => void) => () => void;
  readonly version: () => number;
  readonly sessions: () => readonly ServedSession[];
  readonly counts: () => { readonly total: number; readonly active: number };
  readonly meta: () => { readonly ready: boolean; readonly diagnostics: number; readonly windowMinutes: number; readonly history?: HistoryProgress | undefined };
  readonly find: (sessionId: string) => SessionDetail | undefined;
}

/** The summary fields of a detail, in wire order (the list and SSE carry summaries only). */
export const summaryOf = (d: SessionDetail): SessionSummary => ({
  session_id: d.session_id,
  agent: d.agent,
  cwd: d.cwd,
  short_name: d.short_name,
  agent_name: d.agent_name,
  custom_name: d.custom_name,
  source: d.source,
  activity: d.activity,
  is_active: d.is_active,
  model: d.model,
  git_branch: d.git_branch,
  cost_usd: d.cost_usd,
  cost_source: d.cost_source,
  last_activity: d.last_activity,
  total_messages: d.total_messages,
  display_name: d.display_name,
  started_at: d.started_at,
  order_group: d.order_group,
  waiting_since: d.waiting_since,
});

/**
 * The monitor's listing (streams/listing.ts), shared with the other interfaces that list what the
 * config's window shows.
 */
const pipelineListing = (feed: ListingFeed, worktree: WorktreeLookup): Listing => {
  const cache = feed.listing;
  let names: SessionNames = {};
  // Details are built on request, once per session state, name and frame (the current tool may
  // change with time alone).
  const details = new WeakMap<SessionState, { readonly now: number; readonly name: string; readonly detail: SessionDetail }>();
  let diagnosticsOf: { readonly from: Readonly<Record<string, number>>; readonly sum: number } | undefined;
  return {
    changes$: feed.frame$,
    setNames: (next) => {
      names = next;
      cache.setNames(next);
    },
    refresh: () => void cache.refresh(),
    onChanges: (listener) => cache.onChanges(listener),
    version: () => cache.version(),
    sessions: () => cache.sessions(),
    counts: () => cache.counts(),
    meta: () => {
      const state = cache.frame()?.state;
      if (state && diagnosticsOf?.from !== state.diagnostics) diagnosticsOf = { from: state.diagnostics, sum: needingAttention(state.diagnostics) };
      return { ready: state?.ready ?? false, diagnostics: diagnosticsOf?.sum ?? 0, windowMinutes: feed.visibility.windowMinutes ?? 0, history: state?.ready ? undefined : state?.history };
    },
    find: (sessionId) => {
      const found = cache.find(sessionId);
      const now = cache.frame()?.now;
      if (!found || now === undefined) return undefined;
      const cached = details.get(found.state);
      if (cached && cached.now === now && cached.name === found.customName) return cached.detail;
      const detail = toDetail(found.state, { now, customNames: names, worktree: worktree(found.state.cwd), activity: found.activity, rules: activityRules(feed.visibility.waitingTimeoutMinutes) });
      details.set(found.state, { now, name: found.customName, detail });
      return detail;
    },
  };
};

export interface StoreInput {
  readonly feed: ListingFeed;
  readonly worktree: WorktreeLookup;
}

/** The pipeline's read model as the store follows it (the monitor passes its pipeline). */
export interface ListingFeed {
  /** The frames; each has reached `listing` before it is emitted. */
  readonly frame$: Observable<ListingFrame>;
  /** What the config's window lists, shared with every interface of that window. */
  readonly listing: SessionListing;
  /** The listing's options as they are now (the window shown in /api/stats). */
  readonly visibility: VisibilityOptions;
}

/** `degraded` in the stats only while some store runs without its disk (the field is absent otherwise). */
const degradedField = (): Pick<ApiStats, 'degraded'> => {
  const degraded = degradedWire();
  return degraded.length === 0 ? {} : { degraded };
};

/**
 * The store over the pipeline's listing. Reading it refreshes the listing, which only rebuilds
 * what changed; a snapshot (and its joined JSON) is built at most once per change.
 */
export const createSessionStore = (
  deps: StoreInput & {
    readonly names: SessionNames;
    readonly saveName: SaveName;
    /** Names changed by others (the names file on disk); optional. */
    readonly namesChanged$?: Observable<SessionNames>;
  },
): SessionStore => {
  const listing = pipelineListing(deps.feed, deps.worktree);
  const names$ = new BehaviorSubject<SessionNames>(deps.names);
  const followNames = deps.namesChanged$?.subscribe((names) => names$.next(names));
  // What changed since the last snapshot was built: handed out with the next one.
  const pending = { changed: new Map<string, ServedSession>(), removed: new Set<string>() };
  const updates = new Subject<StoreUpdate>();
  let snapshot: { readonly key: string; readonly value: SessionsSnapshot } | undefined;

  // Whoever refreshed the listing (this store, metrics reading it), the changes are collected here.
  const collect = (changes: StoreChanges): void => {
    for (const id of changes.removed) {
      pending.changed.delete(id);
      pending.removed.add(id);
    }
    for (const served of changes.changed) {
      pending.removed.delete(served.summary.session_id);
      pending.changed.set(served.summary.session_id, served);
    }
  };
  const stopCollecting = listing.onChanges(collect);
  const refresh = (): void => listing.refresh();

  const takePending = (): StoreChanges => {
    if (pending.changed.size === 0 && pending.removed.size === 0) return { changed: [], removed: [] };
    const taken = { changed: [...pending.changed.values()], removed: [...pending.removed] };
    pending.changed.clear();
    pending.removed.clear();
    return taken;
  };

  const current = (): SessionsSnapshot => {
    refresh();
    const meta = listing.meta();
    const version = listing.version();
    const key = `${version}:${meta.ready}:${meta.diagnostics}:${meta.windowMinutes}:${storageVersion()}:${meta.history?.read ?? ''}/${meta.history?.total ?? ''}`;
    if (snapshot?.key === key) return snapshot.value;
    const counts = listing.counts();
    const sessions = listing.sessions();
    let summaries: readonly SessionSummary[] | undefined;
    let json: string | undefined;
    let bytes: Buffer | undefined;
    const joined = (): string => `[${sessions.map((s) => s.json).join(',')}]`;
    const value: SessionsSnapshot = {
      version,
      sessions,
      get summaries() {
        summaries ??= sessions.map((s) => s.summary);
        return summaries;
      },
      get summariesJson() {
        json ??= joined();
        return json;
      },
      // Built from the string without keeping it: a monitor that only answers GET /api/sessions
      // holds the list once (its bytes), not twice.
      get summariesBytes() {
        bytes ??= Buffer.from(json ?? joined());
        return bytes;
      },
      stats: {
        total_sessions: counts.total,
        active_sessions: counts.active,
        window_minutes: meta.windowMinutes,
        ready: meta.ready,
        diagnostics: meta.diagnostics,
        ...degradedField(),
        ...(meta.history ? { history: { read: meta.history.read, total: meta.history.total } } : {}),
      },
      find: (sessionId) => listing.find(sessionId),
    };
    snapshot = { key, value };
    updates.next({ changes: takePending(), stats: value.stats });
    return value;
  };

  const followNamesIntoListing: Subscription = names$.subscribe((names) => listing.setNames(names));
  // The listing follows every frame at once (marking what it touched is all a frame costs);
  // snapshots are built when read.
  const changed$ = new Subject<void>();
  const followListing: Subscription = listing.changes$.subscribe(() => changed$.next());
  // Changes from the pipeline (or the views) and from renames; a new snapshot only when one shows.
  // A store losing or regaining its disk changes the stats alone: a snapshot (and an SSE frame) says so.
  const storage$ = new Observable<void>((subscriber) => onStorageChange(() => subscriber.next()));
  const snapshot$ = merge(changed$, names$, storage$).pipe(
    map(() => current()),
    distinctUntilChanged(),
  );
  // The pipeline's changes reach the listing through `snapshot$`: following it is what makes them.
  const updates$ = merge(updates, snapshot$.pipe(ignoreElements()));

  return {
    current,
    settle: () => {
      refresh();
      listing.sessions();
      snapshot = undefined;
    },
    snapshot$,
    updates$,
    rename: async (sessionId, name) => {
      const names = await deps.saveName(sessionId, name);
      names$.next(names);
      return { session_id: sessionId, custom_name: Object.hasOwn(names, sessionId) ? (names[sessionId] as string) : '' };
    },
    close: () => {
      stopCollecting();
      followNames?.unsubscribe();
      followListing.unsubscribe();
      followNamesIntoListing.unsubscribe();
      changed$.complete();
      names$.complete();
      updates.complete();
    },
  };
};
