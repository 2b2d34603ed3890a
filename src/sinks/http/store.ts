import { BehaviorSubject, combineLatest, map, shareReplay, type Observable, type Subscription } from 'rxjs';
import type { SessionNames } from '../../config/session-names.js';
import type { SessionDetail, SessionSummary } from '../../core/session.js';
import type { ApiStats } from '../../core/wire.js';

/** `GET /api/stats` (the type lives in core/wire.ts, shared with the web dashboard). */
export type { ApiStats } from '../../core/wire.js';

/** What the pipeline hands the API on every change (names not yet applied). */
export interface SessionViews {
  /** Sessions inside the visibility window, exclusions applied, newest first. */
  readonly visible: readonly SessionDetail[];
  /** Any known (not hidden) session by id, visible or not: the detail route answers for both. */
  readonly lookup: (sessionId: string) => SessionDetail | undefined;
  readonly windowMinutes: number;
  /** Defaults to true (views built after the first discovery). */
  readonly ready?: boolean;
  readonly diagnostics?: number;
}

/** One consistent picture, custom names applied. */
export interface SessionsSnapshot {
  readonly sessions: readonly SessionDetail[];
  /** `sessions` as summaries, same order; computed once per snapshot, on first use. */
  readonly summaries: readonly SessionSummary[];
  /** `summaries` as JSON text, built once per snapshot from each session's cached JSON: what GET /api/sessions sends. */
  readonly summariesJson: string;
  readonly stats: ApiStats;
  readonly find: (sessionId: string) => SessionDetail | undefined;
}

/** The API's view of the monitor: read the latest picture, follow changes, rename. */
export interface SessionStore {
  readonly current: () => SessionsSnapshot;
  /** The latest snapshot now, then one per change (pipeline update, tick, rename). */
  readonly snapshot$: Observable<SessionsSnapshot>;
  /** Persist a custom name ("" or undefined resets it); resolves to the renamed session, or undefined when unknown. */
  readonly rename: (sessionId: string, name: string | undefined) => Promise<SessionDetail | undefined>;
  readonly close: () => void;
}

/** Persists one name and resolves to the whole names map as now stored (concurrent writers included). */
export type SaveName = (sessionId: string, name: string | undefined) => Promise<SessionNames>;

const withName = (detail: SessionDetail, names: SessionNames): SessionDetail => {
  const custom = names[detail.session_id] ?? '';
  return custom === detail.custom_name ? detail : { ...detail, custom_name: custom };
};

/** Pure: the pipeline's views plus the names map -> the snapshot every route and SSE serve. */
export const toSnapshot = (views: SessionViews, names: SessionNames): SessionsSnapshot => {
  const sessions = views.visible.map((detail) => withName(detail, names));
  let summaries: readonly SessionSummary[] | undefined;
  let summariesJson: string | undefined;
  return {
    sessions,
    get summaries() {
      summaries ??= sessions.map(summaryOf);
      return summaries;
    },
    get summariesJson() {
      summariesJson ??= `[${sessions.map(summaryJsonOf).join(',')}]`;
      return summariesJson;
    },
    stats: {
      total_sessions: sessions.length,
      active_sessions: sessions.filter((s) => s.is_active).length,
      window_minutes: views.windowMinutes,
      ready: views.ready ?? true,
      diagnostics: views.diagnostics ?? 0,
    },
    find: (sessionId) => {
      const found = views.lookup(sessionId);
      return found ? withName(found, names) : undefined;
    },
  };
};

/**
 * A detail's summary and its JSON text, cached per detail object: details are rebuilt only when
 * their session changes (pipeline-views.ts), so an unchanged session is serialised once, and the
 * list route, SSE `update` and `patch` frames reuse the same text.
 */
const summaries = new WeakMap<SessionDetail, { readonly summary: SessionSummary; readonly json: string }>();
const cachedSummary = (d: SessionDetail): { readonly summary: SessionSummary; readonly json: string } => {
  let entry = summaries.get(d);
  if (!entry) {
    const summary = buildSummary(d);
    entry = { summary, json: JSON.stringify(summary) };
    summaries.set(d, entry);
  }
  return entry;
};

/** The summary fields of a detail, in wire order (the list and SSE carry summaries only). */
export const summaryOf = (d: SessionDetail): SessionSummary => cachedSummary(d).summary;
export const summaryJsonOf = (d: SessionDetail): string => cachedSummary(d).json;

const buildSummary = (d: SessionDetail): SessionSummary => ({
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
  last_activity: d.last_activity,
  total_messages: d.total_messages,
});

/**
 * The store over a stream of views. `views$` must emit its current value on subscription (the
 * monitor waits for the first discovery before building the server, so it does).
 */
export const createSessionStore = (deps: {
  readonly views$: Observable<SessionViews>;
  readonly names: SessionNames;
  readonly saveName: SaveName;
  /** Names changed by others (the names file on disk); optional. */
  readonly namesChanged$?: Observable<SessionNames>;
}): SessionStore => {
  const names$ = new BehaviorSubject<SessionNames>(deps.names);
  const followNames = deps.namesChanged$?.subscribe((names) => names$.next(names));
  const snapshot$ = combineLatest([deps.views$, names$]).pipe(
    map(([views, names]) => toSnapshot(views, names)),
    shareReplay({ bufferSize: 1, refCount: false }),
  );
  let latest: SessionsSnapshot | undefined;
  const keepLatest: Subscription = snapshot$.subscribe((snapshot) => {
    latest = snapshot;
  });
  const current = (): SessionsSnapshot => {
    if (!latest) throw new Error('session store read before the pipeline produced its first state');
    return latest;
  };
  return {
    current,
    snapshot$,
    rename: async (sessionId, name) => {
      if (!current().find(sessionId)) return undefined;
      names$.next(await deps.saveName(sessionId, name));
      return current().find(sessionId);
    },
    close: () => {
      followNames?.unsubscribe();
      keepLatest.unsubscribe();
      names$.complete();
    },
  };
};
