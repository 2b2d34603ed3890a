import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentKind } from '../../core/agents.js';
import type { SessionsState } from '../../core/contracts.js';
import type { SessionKey, SessionState } from '../../core/session.js';
import { waitingSince } from '../../streams/activity.js';
import { WAITING_GRACE_MS } from '../../streams/constants.js';

/** A session has been waiting for input for `waitedMs`: worth one desktop notification. */
export interface WaitingAlert {
  readonly agent: AgentKind;
  readonly sessionId: string;
  readonly cwd: string;
  readonly waitedMs: number;
}

/** One wait of one session: the answer it started with, and its timer (null once due or passed). */
interface Wait {
  readonly since: number;
  readonly seen: SessionState;
  readonly timer: Subscription | null;
}

/**
 * When a wait that began at `since` is due for its alert: `ms` after the answer, and never
 * inside the grace after it (the agent may still go on, the interfaces still show "thinking").
 */
const alertDueAt = (since: number, ms: number): number => since + Math.max(ms, WAITING_GRACE_MS);

export interface WaitOptions {
  /** The sessions that may alert at all; sub-agent sessions never do. */
  readonly watched?: (s: SessionState) => boolean;
  /** The clock of the records' times (ctx.now); the scheduler's own by default. */
  readonly now?: () => number;
}

/**
 * Emits one alert per wait of a session for its user, `ms` after the agent's answer (the record's
 * own time, not when it was read). A wait ends only with a newer record of the session (the user
 * acts, or the agent goes on): the displayed activity turning idle does not end it, so every `ms`
 * the config accepts alerts. A wait already past its alert at start (in the first state after
 * `ready`) alerts nothing: it crossed the threshold before agentwatch ran. One that begins later
 * and is already past due (its answer read late) alerts at once. States before `ready` are skipped
 * (the first discovery pass replays history).
 *
 * @example state$.pipe(notifyAfterWaiting(30_000, ctx.scheduler, { now: ctx.now }))
 */
export const notifyAfterWaiting =
  (ms: number, scheduler: SchedulerLike = asyncScheduler, options: WaitOptions = {}): OperatorFunction<SessionsState, WaitingAlert> =>
  (source) =>
    new Observable<WaitingAlert>((subscriber) => {
      const watched = options.watched ?? ((s: SessionState) => !s.isSidechain);
      const clock = options.now ?? (() => scheduler.now());
      // The sessions waiting for their user, each with its current wait.
      const waits = new Map<SessionKey, Wait>();
      let started = false;
      const follow = (key: SessionKey, s: SessionState, atStart: boolean): void => {
        const wait = waits.get(key);
        if (wait?.seen === s) return;
        const since = watched(s) ? waitingSince(s) : 0;
        if (wait && wait.since === since) {
          waits.set(key, { ...wait, seen: s });
          return;
        }
        wait?.timer?.unsubscribe();
        waits.delete(key);
        if (since === 0) return;
        const due = alertDueAt(since, ms);
        const now = clock();
        const { agent, sessionId, cwd } = s;
        if (due <= now) {
          waits.set(key, { since, seen: s, timer: null });
          if (!atStart) subscriber.next({ agent, sessionId, cwd, waitedMs: ms });
          return;
        }
        const timer = scheduler.schedule(() => {
          const current = waits.get(key);
          if (current?.since !== since) return;
          waits.set(key, { ...current, timer: null });
          subscriber.next({ agent, sessionId, cwd, waitedMs: ms });
        }, due - now);
        waits.set(key, { since, seen: s, timer });
      };
      const upstream = source.subscribe({
        next: (state) => {
          if (!state.ready) return;
          for (const [key, s] of state.sessions) follow(key, s, !started);
          started = true;
          for (const [key, wait] of waits) {
            if (state.sessions.has(key)) continue;
            wait.timer?.unsubscribe();
            waits.delete(key);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        upstream.unsubscribe();
        for (const wait of waits.values()) wait.timer?.unsubscribe();
        waits.clear();
      };
    });
