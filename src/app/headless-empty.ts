import { filter, take, type Observable, type Subscription } from 'rxjs';
import type { SessionsState } from '../core/contracts.js';
import { countAnyAge, countVisible, type VisibilityOptions } from '../streams/visibility.js';

/**
 * Without the TUI (`--api`, `--gui`) nobody sees an empty list: once the first discovery is done
 * and nothing is in the window, say so once on stderr, with what exists outside the window, where
 * the sources looked, and what to run next: every interface says where it looked.
 * Pure lines; `watchHeadlessEmpty` prints them.
 */
const headlessEmptyLines = (state: SessionsState, now: number, visibility: VisibilityOptions, searched: readonly string[]): string[] => {
  if (countVisible(state.sessions.values(), now, visibility) > 0) return [];
  const older = countAnyAge(state.sessions.values(), now, visibility);
  const window = visibility.windowMinutes ?? 0;
  const next =
    older > 0
      ? `${older} older session${older === 1 ? ' is' : 's are'} outside the window (a larger window_minutes in config.json lists them here; agentwatch sessions --all prints them)`
      : 'none older either: agentwatch --demo --api serves sample sessions to try the API';
  return [`no sessions active in the last ${window} minutes; ${next}`, ...(searched.length > 0 ? [`looked in: ${searched.join(', ')}`] : [])];
};

export const watchHeadlessEmpty = (
  state$: Observable<SessionsState>,
  now: () => number,
  visibility: VisibilityOptions,
  searched: readonly string[],
  say: (line: string) => void,
): Subscription =>
  state$.pipe(
    filter((state) => state.ready),
    take(1),
  ).subscribe((state) => {
    for (const line of headlessEmptyLines(state, now(), visibility, searched)) say(line);
  });
