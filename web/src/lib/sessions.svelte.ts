import type { SessionOrder } from '../../../src/core/session-order.js';
import { compareSessions, type OrderFacts } from '../../../src/streams/order.js';
import { orderFacts } from './listing.js';
import type { ApiStats, PatchFrame, SessionDetail, SessionSummary, SessionsFrame } from './wire.js';

/**
 * The live listing, keyed by session id. Each session is one `SessionEntry` whose summary is a
 * signal of its own: a patch replaces the summaries of the sessions it names and nothing else,
 * so only those cards update (no re-render of the grid per event).
 */

export class SessionEntry {
  readonly id: string;
  summary: SessionSummary;
  /** The detail (last message, recent tools...), fetched for cards on screen and the detail panel. */
  detail: SessionDetail | undefined = $state.raw(undefined);
  /** The summary's JSON when `detail` was fetched: a different summary means the detail is stale. */
  detailOf = '';
  /** The summary as JSON, written when first compared (a first listing of thousands writes none). */
  #json: string | undefined;
  /** The summary's keys of the list order, read once per summary. */
  facts: OrderFacts;

  constructor(summary: SessionSummary) {
    this.id = summary.session_id;
    this.summary = $state.raw(summary);
    this.facts = orderFacts(summary);
  }

  get summaryJson(): string {
    return (this.#json ??= JSON.stringify(this.summary));
  }

  /** Takes a newer summary; false when it says what the current one does. */
  update(summary: SessionSummary): boolean {
    const json = JSON.stringify(summary);
    if (json === this.summaryJson) return false;
    this.#json = json;
    this.summary = summary;
    this.facts = orderFacts(summary);
    return true;
  }

  get detailStale(): boolean {
    return this.detailOf !== this.summaryJson;
  }
}

export class SessionsState {
  readonly #entries = new Map<string, SessionEntry>();
  /** Every listed session, in `order` (the server's rule: src/streams/order.ts). */
  list: readonly SessionEntry[] = $state.raw([]);
  /** `sort_order` of the config; the default until the config is read. */
  order: SessionOrder = $state('needs-you');
  stats: ApiStats | undefined = $state.raw(undefined);
  /** A listing arrived at least once (before that the grid shows "loading"). */
  loaded = $state(false);

  get(id: string): SessionEntry | undefined {
    return this.#entries.get(id);
  }

  /** A full listing (snapshot on connect or reconnect, or an `update` event; docs/api.md): keyed, unchanged sessions untouched. */
  replaceAll(frame: SessionsFrame): void {
    const seen = new Set<string>();
    for (const summary of frame.sessions) {
      seen.add(summary.session_id);
      this.#upsert(summary);
    }
    for (const id of [...this.#entries.keys()]) if (!seen.has(id)) this.#entries.delete(id);
    this.#finish(frame.stats);
  }

  applyPatch(frame: PatchFrame): void {
    for (const summary of frame.changed) this.#upsert(summary);
    for (const id of frame.removed) this.#entries.delete(id);
    this.#finish(frame.stats);
  }

  /** Another order: the same sessions, sorted again. */
  setOrder(order: SessionOrder): void {
    if (order === this.order) return;
    this.order = order;
    if (this.loaded) this.#sort();
  }

  setStats(stats: ApiStats): void {
    this.stats = stats;
  }

  /** A rename answered by the server shows at once (the stream confirms it a moment later). */
  rename(id: string, customName: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    // The name shown follows the rename; reset, it is the agent's title or the previous name until the stream says.
    const before = entry.summary;
    const shown = customName || (before.custom_name === '' ? before.display_name : before.agent_name || before.display_name);
    this.#upsert({ ...before, custom_name: customName, display_name: shown });
  }

  #upsert(summary: SessionSummary): void {
    const entry = this.#entries.get(summary.session_id);
    if (!entry) {
      this.#entries.set(summary.session_id, new SessionEntry(summary));
      return;
    }
    entry.update(summary);
  }

  #sort(): void {
    const compare = compareSessions(this.order);
    this.list = [...this.#entries.values()].sort((a, b) => compare(a.facts, b.facts));
  }

  #finish(stats: ApiStats): void {
    this.#sort();
    this.stats = stats;
    this.loaded = true;
  }
}
