import { compactAge } from '../../../src/core/age.js';
import { displayNameOf, plainLine, type NameSource } from '../../../src/core/session-name.js';
import { timeOf } from '../../../src/core/time.js';
import type { SessionSummary } from './wire.js';

/** Pure text formatting of the dashboard (no DOM), unit-tested. */

/** What the session is called (the server's `display_name`: one rule for every interface, src/core/session-name.ts). */
export const displayName = (s: Pick<SessionSummary, 'display_name'>): string => s.display_name;

export type { NameSource };

/** The session's name on its card, in the detail panel and the panel view, and where it came from (a prompt is styled apart). */
export const sessionName = (s: Pick<SessionSummary, 'custom_name' | 'agent_name' | 'short_name' | 'session_id' | 'display_name'>): { readonly text: string; readonly source: NameSource } =>
  displayNameOf(s);

/** A message on one line, markdown made plain (the card's preview of the latest message). */
export { plainLine };

/** The activity as every interface writes it: "waiting 14m" while the session waits for its user. */
export { activityText } from '../../../src/core/activity.js';

/**
 * The card's line under the name: the project folder, or, when the session is already named
 * after it, the folder it sits in (`/home/dev/work/` under `src`), never the same word twice.
 */
export const placeLine = (s: Pick<SessionSummary, 'short_name' | 'cwd'>, name: { readonly source: NameSource }): string => {
  if (name.source !== 'project') return s.short_name || s.cwd;
  const parent = /^(.*[\\/])[^\\/]+$/.exec(s.cwd.replace(/[\\/]+$/, ''))?.[1] ?? '';
  return parent.length > 1 ? parent : '';
};

/** "now", "42s", "5m", "3h", "2d": the age of an RFC 3339 instant at `now` (epoch ms), as the TUI shows it. */
export const age = (iso: string, now: number): string => {
  const at = timeOf(iso);
  return at > 0 ? compactAge(at, now) : '';
};

export const cost = (usd: number): string => {
  if (!Number.isFinite(usd) || usd <= 0) return '';
  if (usd < 0.01) return '<$0.01';
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd).toLocaleString('en-US')}`;
};

/** What the ~ of an estimated cost means (a tooltip where the cost is shown). */
export const ESTIMATE_NOTE = 'estimated from list prices';

/** A session's cost as shown: `~$2.34` for an estimate, `-` when no one knows the model's price, '' for none. */
export const sessionCost = (s: Pick<SessionSummary, 'cost_usd' | 'cost_source'>): string => {
  if (s.cost_source === null) return s.cost_usd > 0 ? cost(s.cost_usd) : '';
  const shown = cost(s.cost_usd);
  return shown !== '' && s.cost_source === 'price-table' ? `~${shown}` : shown;
};

/** The footer's total over the listed sessions: whether it holds estimates, and how many sessions it leaves out. */
export const costTotal = (sessions: Iterable<Pick<SessionSummary, 'cost_usd' | 'cost_source'>>): { readonly usd: number; readonly estimated: boolean; readonly unpriced: number } => {
  let usd = 0;
  let estimated = false;
  let unpriced = 0;
  for (const s of sessions) {
    usd += s.cost_usd;
    if (s.cost_source === 'price-table' && s.cost_usd > 0) estimated = true;
    if (s.cost_source === null) unpriced += 1;
  }
  return { usd, estimated, unpriced };
};

export const tokens = (count: number): string => {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(count < 10_000_000 ? 2 : 1)}M`;
};

/** Window length as the header shows it: 30m, 2h, 1d 6h. */
export const windowLabel = (minutes: number): string => {
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 1440) return minutes % 60 === 0 ? `${minutes / 60}h` : `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.round((minutes % 1440) / 60);
  return hours === 0 ? `${days}d` : `${days}d ${hours}h`;
};

/** A model id without the vendor's date suffix: claude-sonnet-4-5-20250929 -> claude-sonnet-4-5. */
export const shortModel = (model: string): string => model.replace(/-\d{8}$/, '');

/** A local date-time with seconds, for the detail panel. */
const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
export const localTime = (iso: string): string => {
  const at = timeOf(iso);
  return at > 0 ? localFormat.format(at) : '';
};

/** "just now", "5m ago": an age in a sentence. */
export const ago = (iso: string, now: number): string => {
  const text = age(iso, now);
  return text === '' ? '' : text === 'now' ? 'just now' : `${text} ago`;
};
