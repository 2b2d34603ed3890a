import type { Activity } from '../core/activity.js';
import { isActiveActivity } from '../core/activity.js';
import type { SessionKey, SessionState, SessionSummary } from '../core/session.js';
import type { SessionNames } from '../config/session-names.js';
import { flatJson } from '../core/flat-json.js';
import { activityRules, deriveActivity, type ActivityRules } from './activity.js';
import type { SessionsState } from '../core/contracts.js';
import { ALL_SESSIONS, type PipelineFrame } from './frames.js';
import { summaryWith } from './views.js';
import { compareNewestFirst, isVisible, windowMs, type VisibilityOptions } from './visibility.js';

/**
 * The read model: what is listed, kept up to date per session version, for every interface. A
 * session's entry holds its state, its activity (the one the fold derived for the frame), its
 * summary with the display name and cost, and that summary's JSON text. A frame only marks the
 * sessions it touched (O(touched)); reading the listing rebuilds exactly those entries whose
 * state, activity or name changed, and keeps every other entry (and its serialised bytes) as it
 * was. Nothing here walks every session, except once when the whole picture changes (the frame
 * that turns ready, a new window).
 */

/** One listed session: its state, its activity at the frame's time, and the wire summary built once. */
export interface ListedSession {
  readonly key: SessionKey;
  readonly state: SessionState;
  readonly activity: Activity;
  readonly customName: string;
  /** Built on first read: a terminal list or a one-shot table reads only the few it shows. */
  readonly summary: SessionSummary;
  /** `summary` as JSON text, serialised once per version of the session (on first read). */
  readonly json: string;
}

/** A class, not an object literal with closures: thousands are made at a start, cheaply. */
class ListedEntry implements ListedSession {
  #summary: SessionSummary | undefined;
  #json: string | undefined;
  constructor(
    readonly key: SessionKey,
    readonly state: SessionState,
    readonly activity: Activity,
    readonly customName: string,
  ) {}
  get summary(): SessionSummary {
    this.#summary ??= summaryWith(this.state, { customNames: this.customName === '' ? {} : { [this.state.sessionId]: this.customName } }, this.activity);
    return this.#summary;
  }
  get json(): string {
    this.#json ??= flatJson(this.summary);
    return this.#json;
  }
}

/** What one refresh changed: sessions added or whose summary changed, and the ids that left. */
interface ListingChanges {
  readonly changed: readonly ListedSession[];
  readonly removed: readonly string[];
}

export interface ListingCounts {
  /** Listed sessions. */
  readonly total: number;
  /** Listed sessions doing something on their own (not idle, not waiting). */
  readonly active: number;
  readonly waiting: number;
}

export interface Listing {
  /** Follows a frame: marks the sessions it touched (nothing is rebuilt until the listing is read). */
  readonly push: (frame: ListingFrame) => void;
  /** The user's names: sessions whose name changed are rebuilt on the next read. */
  readonly setNames: (names: SessionNames) => void;
  /** The visibility options changed outside the frames: everything is looked at again. */
  readonly invalidate: () => void;
  /**
   * Brings the listing up to date with the latest frame; what changed since the previous refresh
   * (also told to every `onChanges` listener, whoever refreshed). `now`, when later than the
   * frame's time, moves the window's edge there: a view whose window is not the pipeline's (the
   * terminal list, widened or narrowed) gets no frame when a session crosses its edge.
   */
  readonly refresh: (now?: number) => ListingChanges;
  /** Follows every refresh that changed something, whoever made it; returns the unsubscribe. */
  readonly onChanges: (listener: (changes: ListingChanges) => void) => () => void;
  /** Grows by one for every refresh that changed something visible. */
  readonly version: () => number;
  /** Listed sessions, newest first (as of the last refresh; rebuilt at most once per version). */
  readonly sessions: () => readonly ListedSession[];
  readonly counts: () => ListingCounts;
  /** The latest frame pushed. */
  readonly frame: () => ListingFrame | undefined;
  /**
   * Any known session that is not hidden for good (sub-agent, excluded, disabled agent), listed or
   * outside the window, with its activity at the frame's time.
   */
  readonly find: (sessionId: string) => ListedSession | undefined;
}

/** What the listing reads of a pipeline frame. */
export type ListingFrame = Pick<PipelineFrame, 'now' | 'activities' | 'touched'> & { readonly state: SessionsState };

const NO_CHANGES: ListingChanges = { changed: [], removed: [] };

const countsDelta = (activity: Activity, sign: 1 | -1): { active: number; waiting: number } => ({
  active: isActiveActivity(activity) ? sign : 0,
  waiting: activity === 'waiting' ? sign : 0,
});

/**
 * The activity the fold derived for the frame. Until the first discovery completes the fold
 * derives none (nothing is announced then), and the listing derives it for what it shows.
 */
const activityIn = (frame: ListingFrame, key: SessionKey, s: SessionState, rules: ActivityRules): Activity => frame.activities.get(key) ?? deriveActivity(s, frame.now, rules);

export const createListing = (options: { readonly visibility: () => VisibilityOptions; readonly names?: SessionNames }): Listing => {
  let names: SessionNames = options.names ?? {};
  let latest: ListingFrame | undefined;
  // The frame the entries were last brought in line with; its sessions map tells what changed.
  let dirty = new Set<SessionKey>();
  let everything = false;
  const entries = new Map<SessionKey, ListedSession>();
  const byId = new Map<string, SessionKey>();
  let version = 0;
  let total = 0;
  let active = 0;
  let waiting = 0;
  // Newest first, rebuilt lazily: `moved` entries are re-placed, the rest keep their order.
  let order: ListedSession[] = [];
  let orderVersion = 0;
  const moved = new Set<SessionKey>();
  let reorderAll = false;
  // Some entry was replaced by a newer object that shows the same (its place and bytes unchanged).
  let replaced = false;

  const build = (key: SessionKey, s: SessionState, activity: Activity, customName: string): ListedSession => new ListedEntry(key, s, activity, customName);

  const add = (entry: ListedSession, sign: 1 | -1): void => {
    total += sign;
    const delta = countsDelta(entry.activity, sign);
    active += delta.active;
    waiting += delta.waiting;
  };

  /** Re-evaluates one session against the frame; records what changed. */
  // The activity rules of the listing's waiting timeout, made once per timeout, not once per session looked at.
  let rules: { readonly minutes: number | undefined; readonly rules: ActivityRules } | undefined;
  const rulesOf = (visibility: VisibilityOptions): ActivityRules => {
    if (rules === undefined || rules.minutes !== visibility.waitingTimeoutMinutes) rules = { minutes: visibility.waitingTimeoutMinutes, rules: activityRules(visibility.waitingTimeoutMinutes) };
    return rules.rules;
  };

  const look = (key: SessionKey, frame: ListingFrame, at: number, visibility: VisibilityOptions, changed: ListedSession[], removed: string[]): void => {
    const s = frame.state.sessions.get(key);
    const before = entries.get(key);
    if (!s || !isVisible(s, at, visibility)) {
      if (!before) return;
      entries.delete(key);
      if (byId.get(before.state.sessionId) === key) byId.delete(before.state.sessionId);
      add(before, -1);
      moved.add(key);
      removed.push(before.state.sessionId);
      return;
    }
    const activity = activityIn(frame, key, s, rulesOf(visibility));
    const customName = names[s.sessionId] ?? '';
    if (before && before.state === s && before.activity === activity && before.customName === customName) return;
    const entry = build(key, s, activity, customName);
    entries.set(key, entry);
    byId.set(s.sessionId, key);
    if (before) add(before, -1);
    add(entry, 1);
    if (!before || before.state.lastActivityAt !== s.lastActivityAt) moved.add(key);
    // A state change that shows nothing new (a checkpoint, a token count outside the summary)
    // keeps the entry current without announcing it.
    if (!before || before.json !== entry.json) changed.push(entry);
    else replaced = true;
  };

  const listeners = new Set<(changes: ListingChanges) => void>();

  /** Listed sessions the window's edge at `at` has passed (the order's tail: oldest last). */
  const pastTheEdge = (at: number, visibility: VisibilityOptions): SessionKey[] => {
    const window = windowMs(visibility.windowMinutes);
    if (window === undefined || entries.size === 0) return [];
    const listed = sessions();
    const past: SessionKey[] = [];
    for (let i = listed.length - 1; i >= 0; i -= 1) {
      const entry = listed[i] as ListedSession;
      if (entry.state.lastActivityAt > at - window) break;
      past.push(entry.key);
    }
    return past;
  };

  const refresh = (now?: number): ListingChanges => {
    const frame = latest;
    if (!frame) return NO_CHANGES;
    const at = now === undefined ? frame.now : Math.max(now, frame.now);
    const visibility = options.visibility();
    const expired = at > frame.now ? pastTheEdge(at, visibility) : [];
    if (!everything && dirty.size === 0 && expired.length === 0) return NO_CHANGES;
    const changed: ListedSession[] = [];
    const removed: string[] = [];
    if (everything) {
      for (const key of frame.state.sessions.keys()) look(key, frame, at, visibility, changed, removed);
      for (const key of [...entries.keys()]) if (!frame.state.sessions.has(key)) look(key, frame, at, visibility, changed, removed);
      reorderAll = true;
    } else {
      for (const key of dirty) look(key, frame, at, visibility, changed, removed);
      for (const key of expired) look(key, frame, at, visibility, changed, removed);
    }
    everything = false;
    dirty = new Set();
    if (changed.length === 0 && removed.length === 0) return NO_CHANGES;
    version += 1;
    const changes = { changed, removed };
    for (const listener of listeners) listener(changes);
    return changes;
  };

  const sessions = (): readonly ListedSession[] => {
    if (orderVersion === version && !reorderAll && moved.size === 0 && !replaced) return order;
    if (reorderAll || moved.size > entries.size / 4) {
      order = [...entries.values()].sort((a, b) => compareNewestFirst(a.state, b.state));
    } else {
      // Entries that did not move keep their relative order (only their object may be newer);
      // the moved ones are sorted and merged in.
      const kept: ListedSession[] = [];
      for (const entry of order) {
        if (moved.has(entry.key)) continue;
        kept.push(entries.get(entry.key) ?? entry);
      }
      const placed = [...moved].flatMap((key) => entries.get(key) ?? []).sort((a, b) => compareNewestFirst(a.state, b.state));
      const merged: ListedSession[] = [];
      let i = 0;
      let j = 0;
      while (i < kept.length || j < placed.length) {
        const a = kept[i];
        const b = placed[j];
        if (b === undefined || (a !== undefined && compareNewestFirst(a.state, b.state) <= 0)) {
          merged.push(a as ListedSession);
          i += 1;
        } else {
          merged.push(b);
          j += 1;
        }
      }
      order = merged;
    }
    moved.clear();
    reorderAll = false;
    replaced = false;
    orderVersion = version;
    return order;
  };

  const anyAge = (visibility: VisibilityOptions): VisibilityOptions => ({ ...visibility, windowMinutes: undefined, dirs: undefined });

  return {
    push: (frame) => {
      latest = frame;
      if (frame.touched === ALL_SESSIONS) everything = true;
      else if (!everything) for (const key of frame.touched) dirty.add(key);
    },
    setNames: (next) => {
      if (next === names) return;
      const before = names;
      names = next;
      for (const id of new Set([...Object.keys(before), ...Object.keys(next)])) {
        if ((before[id] ?? '') === (next[id] ?? '')) continue;
        const key = byId.get(id);
        if (key) dirty.add(key);
      }
    },
    invalidate: () => {
      everything = true;
    },
    refresh,
    onChanges: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
    sessions,
    counts: () => ({ total, active, waiting }),
    frame: () => latest,
    find: (sessionId) => {
      const frame = latest;
      if (!frame) return undefined;
      const listedKey = byId.get(sessionId);
      const listed = listedKey ? entries.get(listedKey) : undefined;
      if (listed && frame.state.sessions.get(listed.key) === listed.state) return listed;
      // Outside the window (or not refreshed yet): a walk over the sessions, for one detail request.
      const visibility = anyAge(options.visibility());
      for (const [key, s] of frame.state.sessions) {
        if (s.sessionId !== sessionId || !isVisible(s, frame.now, visibility)) continue;
        return build(key, s, activityIn(frame, key, s, rulesOf(visibility)), names[sessionId] ?? '');
      }
      return undefined;
    },
  };
};

