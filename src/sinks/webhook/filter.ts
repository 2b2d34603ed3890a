import type { WebhookEntry } from '../../config/schema.js';
import { matchesActivityFilter } from '../../core/activity.js';
import type { Transition } from '../../core/session.js';
import { isExcludedCwd } from '../../streams/visibility.js';

/**
 * Whether `entry` gets a delivery for `transition`: enabled, `events` lists the target state
 * (`to`, or "active" for any state but idle and waiting) and `agents` lists the agent, an empty
 * list meaning all.
 */
export const matchesWebhook = (entry: WebhookEntry, transition: Transition): boolean =>
  entry.enabled &&
  (entry.events.length === 0 || entry.events.some((event) => matchesActivityFilter(event, transition.to))) &&
  (entry.agents.length === 0 || entry.agents.includes(transition.agent));

/**
 * Sessions no interface shows never leave the machine either: sub-agent sessions, and sessions
 * whose cwd matches an `exclude_cwd_substrings` fragment (hidden everywhere, webhooks included).
 */
export const isDeliverable = (transition: Transition, excludeCwdSubstrings: readonly string[]): boolean =>
  !transition.isSidechain && !isExcludedCwd(transition.cwd, excludeCwdSubstrings);
