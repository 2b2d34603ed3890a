import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { auditTime, distinctUntilChanged, filter, map, type Observable, type SchedulerLike } from 'rxjs';
import type { Activity } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionsState } from '../../core/contracts.js';
import type { SessionKey, SessionState, Transition } from '../../core/session.js';
import { latestLimitsRead } from '../../limits/last-read.js';
import { FIVE_HOURS, ONE_WEEK, isFromSessionFile } from '../../limits/windows.js';
import { waitingSince } from '../../streams/activity.js';
import { WAITING_GRACE_MS } from '../../streams/constants.js';
import type { Listing } from '../../streams/listing.js';
import { isHiddenForGood, windowMs, type VisibilityOptions } from '../../streams/visibility.js';
import { isDeliverable } from '../webhook/filter.js';
import { degradedStorage, STORAGE_NAMES } from '../../util/storage-health.js';
import { createActivityLedger, type ListedSession } from './activity-ledger.js';
import { createUsageLedger } from './usage-ledger.js';

/**
 * `GET /metrics`: Prometheus metrics of this agentwatch (docs/fleet.md), through
 * prom-client on a registry of its own (never the library's global one). Gauges are computed
 * when Prometheus scrapes, from the latest folded state; counters are fed by transitions and by
 * usage that grows after the first discovery. Labels are agent, activity, model, kind, code,
 * webhook and outcome: never a session id or a path, so cardinality stays bounded.
 */

export interface MetricsInputs {
  /**
   * The pipeline's frames. `touched` names the sessions a frame may have changed (the pipeline's
   * `PipelineFrame.touched`); without it every session is looked at. `activities` are the ones
   * the fold derived for the frame; without them a scrape derives them.
   */
  readonly frame$: Observable<{ readonly state: SessionsState; readonly touched?: ReadonlySet<SessionKey> | 'all' }>;
  /** What the config's window lists (the pipeline's listing): what the session gauges count. */
  readonly listing: Pick<Listing, 'refresh' | 'sessions'>;
  readonly transitions$: Observable<Transition>;
  /** What is listed: window, exclusions, enabled agents (read at every scrape: it may change live). */
  readonly visibility: () => VisibilityOptions;
  readonly notifyAfterSec: () => number;
  /** The pipeline's clock (epoch ms; virtual in tests). */
  readonly now: () => number;
  /** Paces the usage ledger's catch-up (once a second at most). */
  readonly scheduler: SchedulerLike;
  /** Collect process_* and nodejs_* (off in unit tests: they read the real process). */
  readonly processMetrics?: boolean;
}

/** What the webhook sink reports; every label is the webhook's configured name. */
export interface WebhookMetrics {
  readonly delivery: (webhook: string, outcome: WebhookOutcome) => void;
  readonly retry: (webhook: string) => void;
  readonly queueDepth: (webhook: string, depth: number) => void;
}

type WebhookOutcome = 'delivered' | 'refused' | 'failed' | 'dropped';

export interface Metrics {
  readonly contentType: string;
  readonly render: () => Promise<string>;
  readonly webhooks: WebhookMetrics;
  readonly stop: () => void;
}

const diagnosticLabels = (key: string): { agent: string; code: string } => {
  const at = key.indexOf(':');
  return at < 0 ? { agent: 'unknown', code: key } : { agent: key.slice(0, at), code: key.slice(at + 1) };
};

/** A bounded name for a window's length, for alert rules: 5h, week, month or other. */
const periodOf = (window: { readonly label: string; readonly window_seconds?: number }): '5h' | 'week' | 'month' | 'other' => {
  const seconds = window.window_seconds;
  if (seconds === FIVE_HOURS || /^5[- ]?h(our)?$/i.test(window.label)) return '5h';
  if (seconds === ONE_WEEK || /^(7[- ]day|week|weekly)$/i.test(window.label)) return 'week';
  if ((seconds ?? 0) >= 28 * 86_400 || /month/i.test(window.label)) return 'month';
  return 'other';
};

export const startMetrics = (inputs: MetricsInputs): Metrics => {
  const registry = new Registry();
  // NOTE: the event-loop delay histogram samples on a timer; at prom-client's 10 ms default it
  // woke an idle agentwatch 100 times a second (docs/performance.md); once a second is free.
  if (inputs.processMetrics ?? true) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1_000 });
  const registers = [registry];
  const { now } = inputs;
  const startedAt = now();
  let latest: SessionsState | undefined;
  let readyAfterMs: number | undefined;
  const activityLedger = createActivityLedger();
  const usageLedger = createUsageLedger();

  // Usage is counted for every session an interface may show, whatever its age or content.
  const counted = (s: SessionState): boolean => {
    const visibility = inputs.visibility();
    return !isHiddenForGood(s, visibility);
  };
  const listedUntil = (s: SessionState): number => {
    const window = windowMs(inputs.visibility().windowMinutes);
    return window === undefined ? Number.POSITIVE_INFINITY : s.lastActivityAt + window;
  };
  const isShownTransition = (t: Transition): boolean => {
    const visibility = inputs.visibility();
    return visibility.agents.has(t.agent) && isDeliverable(t, visibility.excludeCwdSubstrings);
  };

  // Sessions whose usage may have grown since the usage ledger last looked: the frames' touched
  // keys, so a monitor that folds a change pays for that session, not for every session.
  let pendingUsage: Set<SessionKey> | 'all' = new Set();
  let usageVisibility: VisibilityOptions | undefined;
  const markUsage = (touched: ReadonlySet<SessionKey> | 'all' | undefined): void => {
    if (pendingUsage === 'all') return;
    if (touched === undefined || touched === 'all') pendingUsage = 'all';
    else for (const key of touched) pendingUsage.add(key);
  };
  const observeUsage = (): void => {
    if (!latest || readyAfterMs === undefined) return;
    const visibility = inputs.visibility();
    // A new visibility (agents, exclusions) changes what counts: every session is looked at again.
    if (pendingUsage === 'all' || visibility !== usageVisibility) usageLedger.observe(latest.sessions, counted);
    else if (pendingUsage.size > 0) usageLedger.observeKeys(latest.sessions, pendingUsage, counted);
    usageVisibility = visibility;
    pendingUsage = new Set();
  };

  const subscriptions = [
    inputs.frame$.subscribe((frame) => {
      latest = frame.state;
      if (readyAfterMs === undefined) {
        if (!frame.state.ready) return;
        readyAfterMs = now() - startedAt;
        usageVisibility = inputs.visibility();
        usageLedger.baseline(frame.state.sessions, counted);
        return;
      }
      markUsage(frame.touched);
    }),
    // Only a new sessions map can hold new usage; frames that moved only time are skipped.
    inputs.frame$
      .pipe(
        map((frame) => frame.state.sessions),
        distinctUntilChanged(),
        auditTime(1_000, inputs.scheduler),
      )
      .subscribe(() => observeUsage()),
    inputs.transitions$.pipe(filter(isShownTransition)).subscribe((t) => activityLedger.transition(t)),
  ];

  /**
   * What one scrape reads: the listed sessions with their activity, from the pipeline's listing
   * brought up to the scrape's time (every collector of a render shares it).
   */
  interface Scrape {
    readonly at: number;
    readonly listed: ReadonlyMap<SessionKey, ListedSession>;
  }
  const scrapeOf = (at: number): Scrape => {
    inputs.listing.refresh(at);
    const listed = new Map<SessionKey, ListedSession>();
    for (const entry of inputs.listing.sessions()) listed.set(entry.key, { session: entry.state, activity: entry.activity });
    return { at, listed };
  };
  let rendering: Scrape | undefined;
  const scrapeNow = (): Scrape => rendering ?? scrapeOf(now());

  new Gauge({
    name: 'agentwatch_sessions',
    help: 'Sessions listed in the visibility window, by agent and current activity.',
    labelNames: ['agent', 'activity'],
    registers,
    collect() {
      this.reset();
      const counts = new Map<string, { agent: AgentKind; activity: Activity; n: number }>();
      for (const { session, activity } of scrapeNow().listed.values()) {
        const key = `${session.agent}\u0000${activity}`;
        const entry = counts.get(key) ?? { agent: session.agent, activity, n: 0 };
        entry.n += 1;
        counts.set(key, entry);
      }
      for (const { agent, activity, n } of counts.values()) this.set({ agent, activity }, n);
    },
  });

  new Gauge({
    name: 'agentwatch_sessions_waiting_too_long',
    help: 'Listed sessions waiting for the user longer than notify_after_sec, by agent.',
    labelNames: ['agent'],
    registers,
    collect() {
      this.reset();
      const { at, listed } = scrapeNow();
      const limitMs = inputs.notifyAfterSec() * 1000;
      const counts = new Map<AgentKind, number>();
      for (const { session } of listed.values()) {
        // The wait counts from the answer, as the notifier's does, and lasts until the user acts
        // (not only while the display shows "waiting").
        const since = waitingSince(session);
        if (since > 0 && at - since >= Math.max(limitMs, WAITING_GRACE_MS)) {
          counts.set(session.agent, (counts.get(session.agent) ?? 0) + 1);
        }
      }
      for (const [agent, n] of counts) this.set({ agent }, n);
    },
  });

  new Counter({
    name: 'agentwatch_activity_seconds_total',
    help: 'Seconds listed sessions spent in each activity while agentwatch ran, by agent.',
    labelNames: ['agent', 'activity'],
    registers,
    collect() {
      this.reset();
      const sessions = latest?.sessions;
      if (!sessions) return;
      const { at, listed } = scrapeNow();
      const totals = activityLedger.totals(listed, at, (key) => sessions.get(key), listedUntil);
      for (const { agent, activity, seconds } of totals.values()) this.inc({ agent, activity }, seconds);
    },
  });

  const transitions = new Counter({
    name: 'agentwatch_transitions_total',
    help: 'Activity transitions of listed sessions, by agent, from and to.',
    labelNames: ['agent', 'from', 'to'],
    registers,
  });
  subscriptions.push(inputs.transitions$.pipe(filter(isShownTransition)).subscribe((t) => transitions.inc({ agent: t.agent, from: t.from, to: t.to })));

  new Counter({
    name: 'agentwatch_tokens_total',
    help: 'Tokens of new usage records seen while agentwatch ran (history at start is not counted), by agent, model and kind.',
    labelNames: ['agent', 'model', 'kind'],
    registers,
    collect() {
      observeUsage();
      this.reset();
      for (const { agent, model, kind, value } of usageLedger.totals().tokens.values()) this.inc({ agent, model, kind }, value);
    },
  });
  new Counter({
    name: 'agentwatch_cost_usd_total',
    help: 'Estimated (or agent-recorded) USD of new usage seen while agentwatch ran, by agent and model.',
    labelNames: ['agent', 'model'],
    registers,
    collect() {
      observeUsage();
      this.reset();
      for (const { agent, model, value } of usageLedger.totals().cost.values()) this.inc({ agent, model }, value);
    },
  });

  new Counter({
    name: 'agentwatch_diagnostics_total',
    help: 'Records and files that could not be used (junk lines, locked databases...), by agent and code.',
    labelNames: ['agent', 'code'],
    registers,
    collect() {
      this.reset();
      for (const [key, n] of Object.entries(latest?.diagnostics ?? {})) if (n > 0) this.inc(diagnosticLabels(key), n);
    },
  });

  new Gauge({
    name: 'agentwatch_ready',
    help: '1 once the first discovery of every enabled agent finished, else 0.',
    registers,
    collect() {
      this.set(latest?.ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'agentwatch_discovery_duration_seconds',
    help: 'Seconds the first discovery took (0 until it finished).',
    registers,
    collect() {
      this.set(readyAfterMs === undefined ? 0 : readyAfterMs / 1000);
    },
  });

  new Gauge({
    name: 'agentwatch_storage_degraded',
    help: '1 while a store runs without its file (a full, read-only or forbidden disk, a lock held too long), by store; else 0.',
    labelNames: ['store'],
    registers,
    collect() {
      const degraded = new Set(degradedStorage().map((entry) => entry.store));
      for (const store of STORAGE_NAMES) this.set({ store: store.replace(/ /g, '_') }, degraded.has(store) ? 1 : 0);
    },
  });

  const deliveries = new Counter({
    name: 'agentwatch_webhook_deliveries_total',
    help: 'Webhook deliveries by webhook and outcome (delivered, refused: 4xx, failed: retries exhausted, dropped: queue bound).',
    labelNames: ['webhook', 'outcome'],
    registers,
  });
  const retries = new Counter({ name: 'agentwatch_webhook_retries_total', help: 'Webhook delivery retries, by webhook.', labelNames: ['webhook'], registers });
  const queueDepth = new Gauge({ name: 'agentwatch_webhook_queue_depth', help: 'Webhook deliveries waiting, by webhook.', labelNames: ['webhook'], registers });

  const limitGauge = (name: string, help: string, pick: (w: { used_percent: number; expected_percent: number }) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['agent', 'row', 'window', 'period', 'source'],
      registers,
      collect() {
        this.reset();
        for (const row of latestLimitsRead()?.json.rows ?? []) {
          // A snapshot the agent wrote (Codex's session file) is a series of its own beside the live one.
          for (const window of row.windows) this.set({ agent: row.agent, row: row.row, window: window.label, period: periodOf(window), source: isFromSessionFile(window) ? 'session_file' : 'live' }, pick(window));
        }
      },
    });
  };
  limitGauge('agentwatch_limit_used_percent', 'Used percent of each rate-limit window at the last on-demand limits read (never polled).', (w) => w.used_percent);
  limitGauge('agentwatch_limit_expected_percent', 'Expected (linear pace) percent of each window at the last on-demand limits read.', (w) => w.expected_percent);
  new Gauge({
    name: 'agentwatch_limit_read_timestamp_seconds',
    help: 'Unix time of the last on-demand limits read (0 before the first).',
    registers,
    collect() {
      this.set((latestLimitsRead()?.readAt ?? 0) / 1000);
    },
  });

  return {
    contentType: registry.contentType,
    render: async () => {
      const scrape = scrapeOf(now());
      rendering = scrape;
      try {
        return await registry.metrics();
      } finally {
        if (rendering === scrape) rendering = undefined;
      }
    },
    webhooks: {
      delivery: (webhook, outcome) => deliveries.inc({ webhook, outcome }),
      retry: (webhook) => retries.inc({ webhook }),
      queueDepth: (webhook, depth) => queueDepth.set({ webhook }, depth),
    },
    stop: () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
      registry.clear();
    },
  };
};
