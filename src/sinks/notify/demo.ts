import { DEMO_SESSIONS } from '../../sources/agents.js';
import type { Teardown } from '../../core/contracts.js';
import type { Sink } from '../../streams/sink.js';
import { notifyAfterWaiting } from './debounce.js';
import { formatNotification } from './message.js';

/** How long the demo's notifying session waits before its sample notification. */
const DEMO_NOTIFY_AFTER_MS = 20_000;

const NOTIFYING = new Set(DEMO_SESSIONS.filter((spec) => spec.notifies === true).map((spec) => spec.sessionId));

/**
 * `--demo`'s notifier: the rule of the real one (once per wait, from the agent's answer) on one
 * generated session, shown as an information line (the TUI's help bar, else stderr). Nothing
 * reaches the desktop: the sessions are not real.
 */
export const makeDemoNotifierSink =
  (): Sink<Teardown> =>
  ({ state$ }, ctx) => {
    const subscription = state$
      .pipe(notifyAfterWaiting(DEMO_NOTIFY_AFTER_MS, ctx.scheduler, { now: ctx.now, watched: (s) => NOTIFYING.has(s.sessionId) }))
      .subscribe((alert) => ctx.log.info(`--demo: ${formatNotification(alert).title} (sample notification, not sent)`));
    return () => subscription.unsubscribe();
  };
