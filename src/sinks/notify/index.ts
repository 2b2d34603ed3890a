import { catchError, EMPTY, filter, from, mergeMap, type Observable } from 'rxjs';
import type { Teardown } from '../../core/contracts.js';
import type { Ctx, Sink } from '../../streams/contracts.js';
import type { Transition } from '../../core/session.js';
import { isDeliverable } from '../webhook/filter.js';
import { notifyAfterWaiting } from './debounce.js';
import { desktopNotify, NotifierUnavailableError, type Notify } from './desktop.js';
import { formatNotification } from './message.js';

export interface NotifierOptions {
  /** Replaces the platform adapter (tests, or a GUI that shows its own notifications). */
  readonly notify?: Notify;
}

/**
 * Raises a desktop notification when a session has waited `notify_after_sec` (only when
 * `notifications` is on; the GUI / --api wiring calls this). A missing notifier is reported
 * once and then no further attempts are made; other failures are reported once per message.
 *
 * @example const stop = startNotifier(transitions$, ctx); ... stop();
 */
export const startNotifier = (transitions$: Observable<Transition>, ctx: Ctx, options: NotifierOptions = {}): Teardown => {
  if (!ctx.config.notifications) return () => undefined;
  const notify = options.notify ?? desktopNotify(ctx.platform, ctx.env);
  let unavailable = false;
  const reported = new Set<string>();

  const subscription = transitions$
    .pipe(
      // Sessions hidden by exclude_cwd_substrings are hidden here too (sub-agents: the operator).
      filter((transition) => isDeliverable(transition, ctx.config.exclude_cwd_substrings)),
      notifyAfterWaiting(ctx.config.notify_after_sec * 1000, ctx.scheduler),
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
  (options: NotifierOptions = {}): Sink =>
  ({ transitions$ }, ctx) =>
    startNotifier(transitions$, ctx, options);
