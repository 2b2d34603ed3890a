import type { Config } from '../config/effective.js';
import type { Loaded } from '../config/load.js';
import type { LiveConfig } from '../config/live.js';
import type { AgentKind } from '../core/agents.js';
import type { CliIo } from '../core/io.js';
import { agentLocations } from '../doctor/sessions-locations.js';
import type { WebhookMetrics } from '../sinks/metrics/index.js';
import { makeDemoNotifierSink } from '../sinks/notify/demo.js';
import { makeNotifierSink } from '../sinks/notify/index.js';
import { makeWebhookSink } from '../sinks/webhook/index.js';
import type { Sink } from '../streams/sink.js';
import { compactHeap } from '../util/long-run-heap.js';
import { attentionLog } from './attention-log.js';
import { compactWhenSettled, processCpuMs } from './compact-when-settled.js';
import { watchHeadlessEmpty } from './headless-empty.js';
import { followConfig, liveCtx } from './live-apply.js';
import type { Pipeline } from './pipeline.js';

/**
 * The background sinks of a running monitor, as a record: every one starts through the pipeline
 * (`SourcePipeline.begin(sinks)`) just before the sources, and stops with it. `undefined` means
 * not started in this run. The interfaces (TUI, API, dashboard) start before, as ModeRunners.
 */
export interface MonitorSinks {
  /** Problems that keep sessions from being read, logged once each. */
  readonly attentionLog: Sink;
  /** Once the first discovery has settled, give back what it allocated. */
  readonly compactor: Sink;
  /** Saved settings follow live: the listing's window, exclusions and agents; the notifier restarts. */
  readonly liveConfig: Sink;
  /** Not in --demo. */
  readonly webhooks: Sink | undefined;
  /** Headless (no TUI), nobody sees an empty list: said once after the first discovery. */
  readonly headlessEmpty: Sink | undefined;
}

export interface MonitorSinkDeps {
  readonly io: CliIo;
  readonly loaded: Loaded;
  readonly live: LiveConfig;
  readonly pipeline: Pipeline;
  /** Agents picked at start (config and --agent). */
  readonly agents: readonly AgentKind[];
  readonly demo: boolean;
  readonly tui: boolean;
  /** First the details a first discovery without a cache folded go back to the cache, then the interfaces settle. */
  readonly releaseDetails: () => void;
  /** The API's, when it runs: the base URL webhook payloads link to, and where they report for GET /metrics. */
  readonly api: { readonly baseUrl?: string | undefined; readonly webhookMetrics?: WebhookMetrics | undefined };
}

export const monitorSinks = ({ io, loaded, live, pipeline, agents, demo, tui, releaseDetails, api }: MonitorSinkDeps): MonitorSinks => ({
  attentionLog: attentionLog(),
  compactor: ({ state$ }, ctx) => {
    // A warm start never loads the details; the heap is compacted around what stays.
    const compact = (): void => {
      releaseDetails();
      compactHeap();
    };
    const settled = compactWhenSettled(state$, { compact, cpuMs: processCpuMs, scheduler: ctx.scheduler });
    return () => settled.unsubscribe();
  },
  // Desktop notifications come from every long-running mode when `notifications` is on; --demo shows a sample one, never sent.
  liveConfig: (streams, ctx) =>
    followConfig(live, pipeline, {
      picked: agents,
      startNotifier: demo ? () => makeDemoNotifierSink()(streams, ctx) : (config: Config) => makeNotifierSink()(streams, { ...ctx, config }),
    }),
  // Webhooks read the live config (exclusions saved in the Settings panel apply to the next transition).
  webhooks: demo
    ? undefined
    : (streams, ctx) =>
        makeWebhookSink({ invalid: [], ...(api.baseUrl ? { apiBaseUrl: api.baseUrl } : {}), ...(api.webhookMetrics ? { metrics: api.webhookMetrics } : {}) })(streams, liveCtx(ctx, live)),
  headlessEmpty:
    tui || demo
      ? undefined
      : ({ state$ }, ctx) => {
          const searched = pipeline.agents.flatMap((agent) => agentLocations(agent, loaded.config, io.env, io.platform));
          const empty = watchHeadlessEmpty(state$, ctx.now, pipeline.visibility, searched, (line) => ctx.log.info(line));
          return () => empty.unsubscribe();
        },
});

/** The sinks of `record` that start, in the record's order. */
export const sinkList = (record: MonitorSinks): Sink[] => Object.values(record).filter((sink): sink is Sink => sink !== undefined);
