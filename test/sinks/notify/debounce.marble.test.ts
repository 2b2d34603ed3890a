import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { notifyAfterWaiting } from '../../../src/sinks/notify/debounce.js';
import { session, stateOf } from './waits.js';

// Every answer below carries its own time, which may be before the state that shows it (a
// session that was already waiting when the monitor came up, or an answer read late).
describe('notifyAfterWaiting (marbles)', () => {
  let rx: TestScheduler;
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  const alert1 = (waitedMs: number) => ({ agent: 'claude', sessionId: 's1', cwd: '/p/one', waitedMs });
  const alert2 = { agent: 'claude', sessionId: 's2', cwd: '/p/two', waitedMs: 30_000 };

  it('alerts once a session has waited the full delay, counted from the answer', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('1s a', { a: stateOf([session('s1', 'assistant', 1_000)]) });
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 60s !').toBe('31s x', { x: alert1(30_000) });
    });
  });

  it('an answer read late still alerts on the answer\'s clock', () => {
    rx.run(({ hot, expectObservable }) => {
      // The answer was written at 1 s but read at 20 s: the alert comes at 31 s, not 50 s.
      const input = hot('20s a', { a: stateOf([session('s1', 'assistant', 1_000)]) });
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 60s !').toBe('31s x', { x: alert1(30_000) });
    });
  });

  it('a session that has waited 140 s when first seen, with a 150 s delay, alerts 10 s later', () => {
    rx.run(({ hot, expectObservable }) => {
      // First seen at 200 s (the monitor starts), answered at 60 s.
      const input = hot('200s a', { a: stateOf([session('s1', 'assistant', 60_000)]) });
      expectObservable(input.pipe(notifyAfterWaiting(150_000, rx)), '^ 300s !').toBe('210s x', { x: alert1(150_000) });
    });
  });

  it('a wait that crossed the delay before it was first seen is not announced', () => {
    rx.run(({ hot, expectObservable }) => {
      const a = stateOf([session('s1', 'assistant', 40_000)]);
      const b = stateOf([session('s1', 'assistant', 40_000, { cwd: '/p/moved' })]);
      const input = hot('200s a 59s b', { a, b });
      expectObservable(input.pipe(notifyAfterWaiting(150_000, rx)), '^ 600s !').toBe('-');
    });
  });

  it('every accepted delay alerts, also long after the display turned idle (the wait lasts until the user acts)', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('1s a', { a: stateOf([session('s1', 'assistant', 1_000)]) });
      expectObservable(input.pipe(notifyAfterWaiting(86_400_000, rx)), '^ 1500m !').toBe('86401s x', { x: alert1(86_400_000) });
    });
  });

  it('never inside the grace after the answer (the agent may go on)', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('1s a', { a: stateOf([session('s1', 'assistant', 1_000)]) });
      expectObservable(input.pipe(notifyAfterWaiting(1_000, rx)), '^ 60s !').toBe('11s x', { x: alert1(1_000) });
    });
  });

  it('a newer record before the delay cancels the alert', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('1s a 28s u', { a: stateOf([session('s1', 'assistant', 1_000)]), u: stateOf([session('s1', 'user', 29_000)]) });
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 90s !').toBe('-');
    });
  });

  it('one alert per wait: a new state of the same wait neither re-arms nor repeats', () => {
    rx.run(({ hot, expectObservable }) => {
      const a = stateOf([session('s1', 'assistant', 1_000)]);
      const b = stateOf([session('s1', 'assistant', 1_000, { model: 'opus' })]);
      const input = hot('1s a 9s b 39s a', { a, b });
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 120s !').toBe('31s x', { x: alert1(30_000) });
    });
  });

  it('a new wait after the user acted alerts again', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('1s a 38999ms u 9999ms b', {
        a: stateOf([session('s1', 'assistant', 1_000)]),
        u: stateOf([session('s1', 'user', 40_000)]),
        b: stateOf([session('s1', 'assistant', 50_000)]),
      });
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 200s !').toBe('31s x 48999ms y', { x: alert1(30_000), y: alert1(30_000) });
    });
  });

  it('sessions are independent; sub-agent sessions and unwatched ones never alert; nothing before ready', () => {
    rx.run(({ hot, expectObservable }) => {
      const early = stateOf([session('s1', 'assistant', 1)], false);
      const both = stateOf([
        session('s1', 'assistant', 1),
        session('s2', 'assistant', 4_000, { cwd: '/p/two' }),
        session('s3', 'assistant', 1, { isSidechain: true }),
        session('s4', 'assistant', 1, { cwd: '/p/hidden' }),
      ]);
      const gone = stateOf([session('s2', 'assistant', 4_000, { cwd: '/p/two' })]);
      const input = hot('e 1s b 23s g', { e: early, b: both, g: gone });
      // s1 leaves the state at 24 s (cancelled); s2 answered at 4 s and alerts at 34 s.
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx, { watched: (s) => !s.isSidechain && s.cwd !== '/p/hidden' })), '^ 90s !').toBe('34s y', { y: alert2 });
    });
  });
});
