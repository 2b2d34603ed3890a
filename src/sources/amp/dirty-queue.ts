/**
 * Serialises the work of a source: keys (files, session directories) marked dirty are processed
 * one at a time, in the order they were first marked. A key marked again while it is being
 * processed runs once more afterwards, so the last write of a burst is never lost, and two reads
 * of the same file never overlap. (Shared by the amp and grok sources.)
 */
export interface DirtyQueue {
  readonly mark: (key: string) => void;
  /** Resolves once nothing is queued or running. */
  readonly idle: () => Promise<void>;
  /** Drops what is queued; the running item finishes but nothing new starts. */
  readonly close: () => void;
}

export const createDirtyQueue = (work: (key: string) => Promise<void>, onError: (key: string, error: unknown) => void): DirtyQueue => {
  const queued = new Set<string>();
  let running: Promise<void> | undefined;
  let closed = false;
  let waiters: (() => void)[] = [];

  const drain = async (): Promise<void> => {
    for (;;) {
      const next = queued.values().next();
      if (next.done || closed) break;
      queued.delete(next.value);
      try {
        await work(next.value);
      } catch (error) {
        onError(next.value, error);
      }
    }
    running = undefined;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  return {
    mark: (key) => {
      if (closed) return;
      queued.add(key);
      // NOTE: drain starts on a microtask, after `running` is set, so it can always clear it.
      running ??= Promise.resolve().then(drain);
    },
    idle: () => (running ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    close: () => {
      closed = true;
      queued.clear();
    },
  };
};
