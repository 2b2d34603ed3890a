import { describe, expect, it } from 'vitest';
import { createReadQueue } from '../../../src/sources/internal/newest-first.js';

describe('createReadQueue: first-pass reads, newest first', () => {
  it('starts the tasks queued in one stretch by mtime, newest first, at most `limit` at once', async () => {
    const queue = createReadQueue(2, () => undefined);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const task = (mtime: number) => async (): Promise<void> => {
      started.push(mtime);
      running += 1;
      most = Math.max(most, running);
      await Promise.resolve();
      running -= 1;
    };
    await Promise.all([5, 40, 10, 30, 20, 1].map((mtime) => queue.run(mtime, task(mtime))));
    expect(started).toEqual([40, 30, 20, 10, 5, 1]);
    expect(most).toBe(2);
  });

  it('a task queued later starts before the older ones still waiting', async () => {
    const queue = createReadQueue(1, () => undefined);
    const started: number[] = [];
    const task = (mtime: number) => async (): Promise<void> => {
      started.push(mtime);
      await new Promise((resolve) => setImmediate(resolve));
    };
    const first = [1, 2, 3].map((mtime) => queue.run(mtime, task(mtime)));
    // Another source's pass, queued while the first task runs.
    await Promise.resolve();
    await Promise.resolve();
    const second = queue.run(10, task(10));
    await Promise.all([...first, second]);
    expect(started).toEqual([3, 10, 2, 1]);
  });

  it('a failed task rejects its own run only', async () => {
    const queue = createReadQueue(4, () => undefined);
    const runs = [queue.run(2, () => Promise.reject(new Error('gone'))), queue.run(1, () => Promise.resolve())];
    const results = await Promise.allSettled(runs);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
  });
});
