/**
 * Saves of one setting, sent in order (pure, unit-tested): one request at a time, and a value asked
 * while one is in flight waits for it, replacing any value already waiting (only the latest is sent
 * next). So quick changes never land out of order and the last value asked is the last one saved.
 * A failed save drops the waiting value: the caller falls back to what the server holds.
 */

export interface LatestOnly<T> {
  /** Save `value`: at once when nothing is in flight, else right after the save in flight. */
  readonly ask: (value: T) => void;
  /** A save is in flight or waiting. */
  readonly busy: () => boolean;
}

export interface LatestHooks<R> {
  /** The last save answered and nothing waits: its answer. */
  readonly settled: (answer: R) => void;
  /** A save failed; nothing more is sent until the next `ask`. */
  readonly failed: (error: unknown) => void;
}

export const latestOnly = <T, R>(save: (value: T) => Promise<R>, hooks: LatestHooks<R>): LatestOnly<T> => {
  let inFlight = false;
  let waiting: { readonly value: T } | undefined;

  const send = (value: T): void => {
    inFlight = true;
    save(value).then(
      (answer) => {
        const next = waiting;
        waiting = undefined;
        if (next) send(next.value);
        else {
          inFlight = false;
          hooks.settled(answer);
        }
      },
      (error: unknown) => {
        inFlight = false;
        waiting = undefined;
        hooks.failed(error);
      },
    );
  };

  return {
    ask: (value) => {
      if (inFlight) waiting = { value };
      else send(value);
    },
    busy: () => inFlight,
  };
};
