import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/sources/internal/pool.js';
import { createTimeSlicer, type YieldIfDue } from '../../src/util/next-turn.js';

/**
 * The time slicer on a fake clock: each task "takes" 3 ms of it, so a 10 ms slice ends after the
 * fourth task. What must hold is that the event loop really turns there (an immediate queued at
 * the start runs), however many workers run the tasks at once.
 */
const tasksBeforeTheLoopTurns = async (workers: number, slice: (now: () => number) => YieldIfDue): Promise<number> => {
  let clock = 0;
  let done = 0;
  let doneAtTurn = -1;
  setImmediate(() => {
    doneAtTurn = done;
  });
  const slicer = slice(() => clock);
  const task = async (): Promise<void> => {
    clock += 3;
    done += 1;
  };
  await runPool(Array.from({ length: 200 }, (_, i) => i), workers, task, slicer);
  return doneAtTurn === -1 ? done : doneAtTurn;
};

describe('time slicing of synchronous work (createTimeSlicer, runPool)', () => {
  it('lets the event loop turn once a slice is used up, with one worker', async () => {
    expect(await tasksBeforeTheLoopTurns(1, (now) => createTimeSlicer(now, 10))).toBe(4);
  });

  it('stops every one of 64 concurrent workers at the same slice end (one yielding alone would not turn the loop)', async () => {
    // All 64 start their first task before any checks the clock: the slice ends within that round.
    const done = await tasksBeforeTheLoopTurns(64, (now) => createTimeSlicer(now, 10));
    expect(done).toBe(64);
  });

  it('never turns the loop without slicing: the 200 tasks run as one stretch (what the slicer prevents)', async () => {
    expect(await tasksBeforeTheLoopTurns(64, () => () => undefined)).toBe(200);
  });

  it('starts a new slice after the turn, so a long run turns the loop again and again', async () => {
    let clock = 0;
    const slicer = createTimeSlicer(() => clock, 10);
    const turns = new Set<Promise<void>>();
    await runPool(
      Array.from({ length: 40 }, (_, i) => i),
      1,
      async () => {
        clock += 3;
      },
      () => {
        const turn = slicer();
        if (turn) turns.add(turn);
        return turn;
      },
    );
    // 40 tasks of 3 ms, one after the other, in 10 ms slices: a turn after every fourth task.
    expect(turns.size).toBe(10);
  });
});
