import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { notifyAfterWaiting } from '../../../src/sinks/notify/debounce.js';
import { transition } from '../webhook/transitions.js';

describe('notifyAfterWaiting (marbles)', () => {
  let rx: TestScheduler;
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  const w1 = transition({ sessionId: 's1', from: 'thinking', to: 'waiting', cwd: '/p/one' });
  const t1 = transition({ sessionId: 's1', from: 'waiting', to: 'thinking', cwd: '/p/one' });
  const i1 = transition({ sessionId: 's1', from: 'waiting', to: 'idle', cwd: '/p/one' });
  const w2 = transition({ sessionId: 's2', agent: 'codex', from: 'running', to: 'waiting', cwd: '/p/two' });
  const sub = transition({ sessionId: 's3', from: 'thinking', to: 'waiting', isSidechain: true });
  const values = { a: w1, t: t1, i: i1, b: w2, s: sub };
  const alert1 = { agent: 'claude', sessionId: 's1', cwd: '/p/one', waitedMs: 30_000 };
  const alert2 = { agent: 'codex', sessionId: 's2', cwd: '/p/two', waitedMs: 30_000 };

  it('alerts once a session has waited the full delay', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('a', values);
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 60s !').toBe('30s x', { x: alert1 });
    });
  });

  it('cancels when the session leaves waiting before the delay', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('a 29s t', values);
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 90s !').toBe('-');
    });
  });

  it('one alert per waiting episode: a duplicate "to waiting" neither re-arms nor repeats', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('a 9s a 39s a', values);
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 120s !').toBe('30s x', { x: alert1 });
    });
  });

  it('a new episode after leaving waiting alerts again (also after going idle)', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('a 39999ms t 9999ms a 39999ms i 9999ms a', values);
      // episodes start at 0, 50 s and 100 s (left at 40 s and 90 s)
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 200s !').toBe('30s x 49999ms y 49999ms z', { x: alert1, y: alert1, z: alert1 });
    });
  });

  it('sessions are independent; sub-agent sessions never alert', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('(as) 3996ms b 19999ms t', values);
      // s1 leaves at 24 s (cancelled); s2 entered at 4 s and alerts at 34 s; s3 is a sub-agent.
      expectObservable(input.pipe(notifyAfterWaiting(30_000, rx)), '^ 90s !').toBe('34s y', { y: alert2 });
    });
  });
});
