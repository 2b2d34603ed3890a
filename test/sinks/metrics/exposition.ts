import { Subject, VirtualAction, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import type { Pipeline } from '../../../src/app/pipeline.js';
import type { SessionsState } from '../../../src/core/contracts.js';
import type { Transition } from '../../../src/core/session.js';
import { startMetrics, type Metrics } from '../../../src/sinks/metrics/index.js';
import { createListing } from '../../../src/streams/listing.js';
import type { VisibilityOptions } from '../../../src/streams/visibility.js';

/** Reads Prometheus text exposition back into `name{labels}` -> value, for assertions. */
export const parseExposition = (text: string): Map<string, number> => {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
};

/** One sample by name and labels (label order as written by the test: prom-client keeps declaration order). */
export const sample = (values: Map<string, number>, name: string, labels: Record<string, string> = {}): number | undefined => {
  const entries = Object.entries(labels);
  const key = entries.length === 0 ? name : `${name}{${entries.map(([k, v]) => `${k}="${v}"`).join(',')}}`;
  return values.get(key);
};

/** Metrics over streams nobody feeds (route and limits tests): an idle pipeline on a virtual clock. */
export const idleMetrics = (options: { readonly processMetrics?: boolean } = {}): Metrics => {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
  const visibility = (): VisibilityOptions => ({ windowMinutes: 30, excludeCwdSubstrings: [], agents: new Set(['claude']) });
  return startMetrics({
    frame$: new Subject<{ state: SessionsState }>(),
    listing: createListing({ visibility }),
    transitions$: new Subject<Transition>(),
    visibility,
    notifyAfterSec: () => 30,
    now: () => scheduler.now(),
    scheduler,
    ...options,
  });
};

/** Metrics on a started pipeline (its frames, transitions and visibility), process metrics off. */
export const pipelineMetrics = (pipeline: Pipeline, ctx: { readonly now: () => number; readonly scheduler: SchedulerLike; readonly config: { readonly notify_after_sec: number } }): Metrics =>
  startMetrics({
    frame$: pipeline.frame$,
    listing: pipeline.listing,
    transitions$: pipeline.transitions$,
    visibility: () => pipeline.visibility,
    notifyAfterSec: () => ctx.config.notify_after_sec,
    now: ctx.now,
    scheduler: ctx.scheduler,
    processMetrics: false,
  });
