import path from 'node:path';
import type { AgentKind } from '../core/agents.js';
import type { SessionState } from '../core/session.js';
import { HIDDEN_UNTIL_PROMPTED } from '../sources/agents.js';

/** What decides whether a session is listed (spec: visibility window, exclusions, toggles). */
export interface VisibilityOptions {
  /** Minutes of visibility; `undefined` lists every age. */
  readonly windowMinutes: number | undefined;
  /** Literal, case-sensitive fragments of the full cwd that hide a session. */
  readonly excludeCwdSubstrings: readonly string[];
  /** Agents shown; the others are hidden. */
  readonly agents: ReadonlySet<AgentKind>;
  /** Absolute paths of one directory (as given, real path: util/dir-forms.ts): only sessions whose cwd is it or below it. */
  readonly dirs?: readonly string[];
  /** `waiting_timeout_minutes` (the default when absent): decides the listed activity, not whether a session is listed. */
  readonly waitingTimeoutMinutes?: number;
}

const stripTrailingSeparators = (p: string): string => {
  const trimmed = p.replace(/[\\/]+$/, '');
  return trimmed === '' ? p.slice(0, 1) : trimmed;
};

/**
 * Path-segment aware containment: `/a/b` contains `/a/b` and `/a/b/c`, not `/a/bc`.
 * Both paths are normalised (`.`/`..`, duplicate and trailing separators).
 */
export const isWithinDir = (cwd: string, dir: string): boolean => {
  if (cwd === '' || dir === '') return false;
  const child = stripTrailingSeparators(path.normalize(cwd));
  const parent = stripTrailingSeparators(path.normalize(dir));
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`;
  return child.startsWith(prefix);
};

/** A window in minutes as milliseconds; `undefined` (every age) stays `undefined`. */
export const windowMs = (windowMinutes: number | undefined): number | undefined => (windowMinutes === undefined ? undefined : windowMinutes * 60_000);

/** `exclude_cwd_substrings`: literal, case-sensitive fragments of the cwd; an empty one hides nothing. */
export const isExcludedCwd = (cwd: string, fragments: readonly string[]): boolean => fragments.some((fragment) => fragment !== '' && cwd.includes(fragment));

/** The sessions no interface shows at any age: sub-agents, disabled agents and excluded folders. */
export const isHiddenForGood = (s: Pick<SessionState, 'isSidechain' | 'agent' | 'cwd'>, options: Pick<VisibilityOptions, 'agents' | 'excludeCwdSubstrings'>): boolean =>
  s.isSidechain || !options.agents.has(s.agent) || isExcludedCwd(s.cwd, options.excludeCwdSubstrings);

/** Pure: is this session listed at `now` under `options`? */
export const isVisible = (s: SessionState, now: number, options: VisibilityOptions): boolean => {
  if (isHiddenForGood(s, options)) return false;
  // A transcript with no dated record yet (an empty file, only a header) has nothing to show.
  if (s.lastActivityAt <= 0) return false;
  if (HIDDEN_UNTIL_PROMPTED.has(s.agent) && s.userMessages === 0) return false;
  if (options.dirs !== undefined && !options.dirs.some((dir) => isWithinDir(s.cwd, dir))) return false;
  const window = windowMs(options.windowMinutes);
  if (window !== undefined && !(s.lastActivityAt > now - window)) return false;
  return true;
};

/** Newest first; equal times by session id so the order is stable. */
export const compareNewestFirst = (a: SessionState, b: SessionState): number =>
  b.lastActivityAt - a.lastActivityAt || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0);

/** The listed sessions, newest first. */
export const selectVisible = (sessions: Iterable<SessionState>, now: number, options: VisibilityOptions): SessionState[] =>
  [...sessions].filter((s) => isVisible(s, now, options)).sort(compareNewestFirst);

/** How many sessions `selectVisible` would list (no copy, no sort: empty states and scope counts). */
export const countVisible = (sessions: Iterable<SessionState>, now: number, options: VisibilityOptions): number => {
  let count = 0;
  for (const s of sessions) if (isVisible(s, now, options)) count += 1;
  return count;
};

/** How many sessions `options` would list at any age (the window lifted): what an empty listing counts as "older". */
export const countAnyAge = (sessions: Iterable<SessionState>, now: number, options: VisibilityOptions): number =>
  countVisible(sessions, now, { ...options, windowMinutes: undefined });
