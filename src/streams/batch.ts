import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * Collects the values a source emits in one synchronous burst (a file chunk's lines) and emits
 * them as one array as soon as the scheduler runs again. The fold then copies its session map
 * once per burst instead of once per record. Under TestScheduler the batch is emitted in the
 * same virtual frame, so marble timings are unchanged.
 */
export const batchSync =
  <T>(scheduler: SchedulerLike): OperatorFunction<T, T[]> =>
  (source) =>
    new Observable<T[]>((subscriber) => {
      let batch: T[] = [];
      let pending: Subscription | undefined;
      const flush = (): void => {
        pending = undefined;
        if (batch.length === 0) return;
        const out = batch;
        batch = [];
        subscriber.next(out);
      };
      const subscription = source.subscribe({
        next: (value) => {
          batch.push(value);
          pending ??= scheduler.schedule(flush);
        },
        error: (error: unknown) => {
          pending?.unsubscribe();
          flush();
          subscriber.error(error);
        },
        complete: () => {
          pending?.unsubscribe();
          flush();
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        pending?.unsubscribe();
      };
    });
