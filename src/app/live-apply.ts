import { pairwise, startWith } from 'rxjs';
import type { Pipeline } from './pipeline.js';
import type { Config } from '../config/effective.js';
import type { LiveConfig } from '../config/live.js';
import type { AgentKind } from '../core/agents.js';
import type { Teardown } from '../core/contracts.js';
import type { Ctx } from '../sources/contracts.js';
import { usePriceOverrides } from '../streams/cost.js';
import type { VisibilityOptions } from '../streams/visibility.js';

/**
 * What a running monitor does when the Settings panel saves (PUT /api/config): the listing
 * follows the window, exclusions and agent switches at once, and the notifier is restarted with
 * the new `notifications` / `notify_after_sec`. Display settings (density, detail width, default
 * filter) and the editor/terminal are read from the live config where they are used. What cannot
 * follow (claude_dirs, webhooks, the TUI theme, an agent whose source is not running) is named to
 * the client as needing a restart (config/patch.ts `restartRequired`).
 */

/** Pure: the listing options of `config` for the agents picked at start (--agent, config). */
const visibilityOf = (config: Config, picked: readonly AgentKind[]): VisibilityOptions => ({
  windowMinutes: config.window_minutes,
  excludeCwdSubstrings: config.exclude_cwd_substrings,
  agents: new Set(picked.filter((agent) => config.agents[agent])),
  waitingTimeoutMinutes: config.waiting_timeout_minutes,
});

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A Ctx whose `config` is always the live one (sinks reading it per transition follow changes). */
export const liveCtx = (ctx: Ctx, live: LiveConfig): Ctx => {
  const copy = { ...ctx };
  Object.defineProperty(copy, 'config', { get: () => live.current(), enumerable: true });
  return copy;
};

export const followConfig = (
  live: LiveConfig,
  pipeline: Pick<Pipeline, 'setVisibility'>,
  options: {
    /** Agents picked at start; the listing shows those still switched on. */
    readonly picked: readonly AgentKind[];
    /** Starts the notifier for `config`; called at once and again when its settings change. */
    readonly startNotifier?: (config: Config) => Teardown;
  },
): Teardown => {
  let stopNotifier: Teardown | undefined = options.startNotifier?.(live.current());
  const subscription = live.changes$.pipe(startWith(live.current()), pairwise()).subscribe(([before, after]) => {
    if (before === after) return;
    const listingKeys = ['window_minutes', 'exclude_cwd_substrings', 'agents', 'waiting_timeout_minutes'] as const;
    if (listingKeys.some((key) => !same(before[key], after[key]))) {
      pipeline.setVisibility(visibilityOf(after, options.picked));
    }
    // Sessions already listed show the new prices when they next change.
    if (!same(before.prices, after.prices)) usePriceOverrides(after.prices);
    const notifierKeys = ['notifications', 'notify_after_sec', 'exclude_cwd_substrings'] as const;
    if (options.startNotifier && notifierKeys.some((key) => !same(before[key], after[key]))) {
      void stopNotifier?.();
      stopNotifier = options.startNotifier(after);
    }
  });
  return () => {
    subscription.unsubscribe();
    return stopNotifier?.();
  };
};
