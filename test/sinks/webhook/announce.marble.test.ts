import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { announceChanges } from '../../../src/sinks/webhook/announce.js';
import { transition } from './transitions.js';

describe('announceChanges (marbles)', () => {
  let rx: TestScheduler;
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  const toRunning = transition({ sessionId: 's1', from: 'reading', to: 'running' });
  const toReading = transition({ sessionId: 's1', from: 'running', to: 'reading' });
  const other = transition({ sessionId: 's2', from: 'thinking', to: 'waiting' });

  it('a session alternating between two states within a second: every change delivered, the last is the state it is in', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('   a 99ms b 99ms a 99ms b', { a: toRunning, b: toReading });
      expectObservable(input.pipe(announceChanges())).toBe('a 99ms b 99ms a 99ms b', { a: toRunning, b: toReading });
    });
  });

  it('19 changes in 3 s: 19 delivered', () => {
    const states = ['thinking', 'reading', 'writing', 'running'] as const;
    const changes = Array.from({ length: 19 }, (_, i) => transition({ sessionId: 's1', from: states[i % 4], to: states[(i + 1) % 4] }));
    const values = Object.fromEntries(changes.map((change, i) => [String.fromCharCode(97 + i), change]));
    const marbles = Object.keys(values).join(' 149ms ');
    rx.run(({ hot, expectObservable }) => {
      expectObservable(hot(marbles, values).pipe(announceChanges())).toBe(marbles, values);
    });
  });

  it('drops only a change to the state receivers already have (a record read twice)', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('   a b o a', { a: toRunning, b: toReading, o: other });
      expectObservable(input.pipe(announceChanges())).toBe('a b o a', { a: toRunning, b: toReading, o: other });
      const twice = hot('   a a o o', { a: toRunning, o: other });
      expectObservable(twice.pipe(announceChanges())).toBe('a - o -', { a: toRunning, o: other });
    });
  });

  it('from is what receivers were last told, seeded by an earlier run', () => {
    const seeded = new Map([['claude:s1', 'browsing'] as const]);
    rx.run(({ hot, expectObservable }) => {
      const input = hot('   a b', { a: toRunning, b: toReading });
      expectObservable(input.pipe(announceChanges(seeded))).toBe('a b', { a: { ...toRunning, from: 'browsing' }, b: toReading });
    });
  });
});
