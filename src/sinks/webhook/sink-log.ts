import type { SchedulerLike, Subscription } from 'rxjs';
import type { Logger } from '../../core/contracts.js';
import type { BreakerEvent } from './breaker.js';
import { bodySnippet } from './report.js';

/** A burst of the same problem ends after this much quiet (or at the next success, or at shutdown). */
const BURST_QUIET_MS = 60_000;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

const duration = (ms: number): string => {
  if (ms < 1000 && ms > 0) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

export interface SinkLog {
  readonly event: (event: BreakerEvent) => void;
  /** `count` of this webhook's oldest deliveries were dropped (queue full or too old). */
  readonly dropped: (webhook: string, count: number, why: string) => void;
  readonly unbuildable: (webhook: string, id: string, error: unknown) => void;
  /** Ends every open burst (shutdown): its count is said now. */
  readonly flush: () => void;
}

interface Burst {
  count: number;
  last: string;
  timer?: Subscription;
}

/**
 * The sink's stderr lines: one per state change of a receiver (down, back), and one line per
 * burst of the same problem rather than one per delivery: the first refusal (4xx) or drop is
 * said at once, the rest are counted and said in one line when the burst ends.
 */
export const createSinkLog = (log: Logger, scheduler: SchedulerLike): SinkLog => {
  const bursts = new Map<string, Burst>();

  const end = (key: string, summary: (burst: Burst) => string): void => {
    const burst = bursts.get(key);
    if (!burst) return;
    bursts.delete(key);
    burst.timer?.unsubscribe();
    if (burst.count > 0) log.warn(summary(burst));
  };

  const summaries = new Map<string, (burst: Burst) => string>();

  const inBurst = (key: string, first: () => string, summary: (burst: Burst) => string, last: string): void => {
    summaries.set(key, summary);
    const burst = bursts.get(key);
    if (!burst) {
      log.warn(first());
      bursts.set(key, { count: 0, last, timer: scheduler.schedule(() => end(key, summary), BURST_QUIET_MS) });
      return;
    }
    burst.count += 1;
    burst.last = last;
    burst.timer?.unsubscribe();
    burst.timer = scheduler.schedule(() => end(key, summary), BURST_QUIET_MS);
  };

  return {
    event: (event) => {
      const who = `webhook "${event.webhook}"`;
      switch (event.kind) {
        case 'delivered':
          end(`refused:${event.webhook}`, summaries.get(`refused:${event.webhook}`) ?? (() => ''));
          if (event.attempts > 1) log.info(`${who}: delivery ${event.id} succeeded on attempt ${event.attempts}`);
          return;
        case 'refused': {
          const reason = `${event.reason}${event.body ? `: ${bodySnippet(event.body)}` : ''}`;
          inBurst(
            `refused:${event.webhook}`,
            () => `${who}: delivery ${event.id} refused, not retried: ${reason}`,
            (burst) => `${who}: ${plural(burst.count, 'more delivery was', 'more deliveries were')} refused, not retried (last: ${burst.last})`,
            reason,
          );
          return;
        }
        case 'failed':
          log.warn(
            `${who}: delivery ${event.id} given up after ${event.attempts} attempts (${event.reason}) while the receiver accepted other deliveries` +
              (event.allAttempts === undefined ? '' : ` (${event.allAttempts} in all; those made while it was down do not count)`),
          );
          return;
        case 'opened':
          log.warn(`${who}: receiver unavailable (${event.reason}); holding its deliveries and retrying the oldest in ${duration(event.retryInMs)}`);
          return;
        case 'retrying':
          return;
        case 'closed':
          log.info(`${who}: receiver is back after ${duration(event.downForMs)}; sending ${plural(event.queued, 'queued delivery', 'queued deliveries')} in order`);
          return;
        default:
          return event satisfies never;
      }
    },
    dropped: (webhook, count, why) => {
      const key = `dropped:${webhook}`;
      const burst = bursts.get(key);
      if (burst) {
        burst.count += count;
        burst.last = why;
        burst.timer?.unsubscribe();
        burst.timer = scheduler.schedule(() => end(key, summaries.get(key) ?? (() => '')), BURST_QUIET_MS);
        return;
      }
      summaries.set(key, (b) => `webhook "${webhook}": ${plural(b.count, 'more delivery was', 'more deliveries were')} dropped (${b.last})`);
      log.warn(`webhook "${webhook}": dropped ${plural(count, 'delivery', 'deliveries')}, the oldest first (${why})`);
      bursts.set(key, { count: 0, last: why, timer: scheduler.schedule(() => end(key, summaries.get(key) ?? (() => '')), BURST_QUIET_MS) });
    },
    unbuildable: (webhook, id, error) => {
      log.warn(`webhook "${webhook}": delivery ${id} could not be built: ${error instanceof Error ? error.message : String(error)}`);
    },
    flush: () => {
      for (const key of [...bursts.keys()]) end(key, summaries.get(key) ?? (() => ''));
    },
  };
};
