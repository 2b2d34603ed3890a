import { Observable, type OperatorFunction, type Subscription } from 'rxjs';

/** Told when a full queue starts refusing values and when it has drained again. */
export type OverflowNotice<T> =
  | { readonly kind: 'overflow_started'; readonly value: T; readonly capacity: number }
  | { readonly kind: 'overflow_ended'; readonly dropped: number };

/**
 * `concatMap` with a bounded buffer: one inner observable at a time, at most `capacity` values
 * waiting behind it, and values that arrive while the buffer is full are dropped (never queued
 * without bound, never blocking the producer). A burst of drops is announced twice: once when it
 * starts and once, with the count, when the queue is empty again, never once per value. Completes
 * after the source completes and everything queued has been processed (that is the shutdown flush).
 *
 * @example transitions$.pipe(concatBounded(100, deliver, (notice) => toReport(notice)))
 */
export const concatBounded =
  <T, R>(capacity: number, project: (value: T) => Observable<R>, overflow: (notice: OverflowNotice<T>) => R): OperatorFunction<T, R> =>
  (source) =>
    new Observable<R>((subscriber) => {
      const waiting: T[] = [];
      let running = false;
      let current: Subscription | undefined;
      let sourceDone = false;
      let dropped = 0;

      const drain = (): void => {
        if (running) return;
        if (waiting.length === 0) {
          if (dropped > 0) {
            subscriber.next(overflow({ kind: 'overflow_ended', dropped }));
            dropped = 0;
          }
          if (sourceDone) subscriber.complete();
          return;
        }
        const value = waiting.shift() as T;
        running = true;
        let finished = false;
        const inner = project(value).subscribe({
          next: (result) => subscriber.next(result),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            finished = true;
            running = false;
            current = undefined;
            drain();
          },
        });
        // NOTE: a synchronous inner has already completed (and a nested drain may have started the
        // next one, which owns `current` now), so only a still-running inner is remembered.
        if (!finished) current = inner;
      };

      const upstream = source.subscribe({
        next: (value) => {
          if (running && waiting.length >= capacity) {
            if (dropped === 0) subscriber.next(overflow({ kind: 'overflow_started', value, capacity }));
            dropped += 1;
            return;
          }
          waiting.push(value);
          drain();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          drain();
        },
      });

      return () => {
        upstream.unsubscribe();
        current?.unsubscribe();
        waiting.length = 0;
      };
    });
