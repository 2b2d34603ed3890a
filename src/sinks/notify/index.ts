import { catchError, EMPTY, from, mergeMap, type Observable } from 'rxjs';
import type { SessionsState, Teardown } from '../../core/contracts.js';
import type { Ctx } from '../../sources/contracts.js';
import type { Sink } from '../../streams/sink.js';
import { isExcludedCwd } from '../../streams/visibility.js';
import { notifyAfterWaiting } from './debounce.js';
import { desktopNotify, NotifierUnavailableError, type Notify } from './desktop.js';
import { formatNotification } from './message.js';

export interface NotifierOptions {
  /** Replaces the platform adapter (tests, or a GUI that shows its own notifications). */
  readonly notify?: Notify;
}

/**
 * Raises a desktop notification when a session has waited `notify_after_sec` since the agent's
 * answer, once per wait (only when `notifications` is on; the monitor's wiring calls this). A
 * missing notifier is reported once and then no further attempts are made; other failures are
 * reported once per message.
 *
 * @example const stop = startNotifier(state$, ctx); ... stop();
 */
export const startNotifier = (state$: Observable<SessionsState>, ctx: Ctx, options: NotifierOptions = {}): Teardown => {
  if (!ctx.config.notifications) return () => undefined;
  const notify = options.notify ?? desktopNotify(ctx.platform, ctx.env);
  let unavailable = false;
  const reported = new Set<string>();

  const excluded = ctx.config.exclude_cwd_substrings;
  const subscription = state$
    .pipe(
      // Sessions no interface shows never notify: sub-agents and excluded folders.
      notifyAfterWaiting(ctx.config.notify_after_sec * 1000, ctx.scheduler, { now: ctx.now, watched: (s) => !s.isSidechain && !isExcludedCwd(s.cwd, excluded) }),
      mergeMap((alert) =>
        unavailable
          ? EMPTY
          : from(notify(formatNotification(alert))).pipe(
              catchError((error: unknown) => {
                if (error instanceof NotifierUnavailableError) {
                  if (!unavailable) ctx.log.warn(error.message);
                  unavailable = true;
                } else {
                  const message = `desktop notification failed: ${error instanceof Error ? error.message : String(error)}`;
                  if (!reported.has(message)) ctx.log.warn(message);
                  reported.add(message);
                }
                return EMPTY;
              }),
            ),
      ),
    )
    .subscribe();
  return () => subscription.unsubscribe();
};

/**
 * `startNotifier` as a pipeline sink: how the monitor starts it, again whenever the notifier's
 * settings change (app/sinks.ts).
 *
 * @example pipeline.start([makeNotifierSink()])
 */
export const makeNotifierSink =
  (options: NotifierOptions = {}): Sink<Teardown> =>
  ({ state$ }, ctx) =>
    startNotifier(state$, ctx, options);
