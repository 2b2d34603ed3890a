import { defer, filter, map, type MonoTypeOperatorFunction } from 'rxjs';
import type { Activity } from '../../core/activity.js';
import { sessionKey, type SessionKey, type Transition } from '../../core/session.js';

/** A transition as receivers get it: `replayed` when it happened while no agentwatch was running. */
export interface Announced extends Transition {
  readonly replayed?: true;
}

/**
 * Every change of a session, in order, with `from` set to what receivers were last told
 * (`announced`, seeded with what an earlier run told them), so no receiver is ever left on a state
 * the session is not in. A transition to the state receivers already have (a source reading a
 * record again, a replay that already said it) changes nothing for them and is dropped; nothing
 * else is, however fast the changes come.
 *
 * @example transitions$.pipe(announceChanges(store.lastStates()))
 */
export const announceChanges =
  (announced: ReadonlyMap<SessionKey, Activity> = new Map()): MonoTypeOperatorFunction<Announced> =>
  (source) =>
    defer(() => {
      // Per subscription: one entry per session ever announced (as many as the sessions listed).
      const told = new Map(announced);
      return source.pipe(
        map((transition): Announced | undefined => {
          const key = sessionKey(transition);
          const before = told.get(key);
          if (before === transition.to) return undefined;
          told.set(key, transition.to);
          return before === undefined || before === transition.from ? transition : { ...transition, from: before };
        }),
        filter((transition): transition is Announced => transition !== undefined),
      );
    });
