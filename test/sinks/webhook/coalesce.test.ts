import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { coalesceDuplicates } from '../../../src/sinks/webhook/coalesce.js';
import { transition } from './transitions.js';

describe('coalesceDuplicates (marbles)', () => {
  let rx: TestScheduler;
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  const a = transition({ sessionId: 's1', from: 'thinking', to: 'waiting' });
  const b = transition({ sessionId: 's1', from: 'waiting', to: 'thinking' });
  const other = transition({ sessionId: 's2', from: 'thinking', to: 'waiting' });
  const codex = transition({ agent: 'codex', sessionId: 's1', from: 'thinking', to: 'waiting' });

  it('drops the same session and from/to within 2 s, lets it through again after', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('  a 499ms b 499ms a 1099ms a', { a, b });
      const expected = '   a 499ms b 1599ms a';
      expectObservable(input.pipe(coalesceDuplicates(2_000, rx))).toBe(expected, { a, b });
    });
  });

  it('never coalesces different sessions, agents or changes', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('  (aocb)', { a, o: other, c: codex, b });
      expectObservable(input.pipe(coalesceDuplicates(2_000, rx))).toBe('(aocb)', { a, o: other, c: codex, b });
    });
  });

  it('measures the window from the last transition let through (a dropped duplicate does not extend it)', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('  a 1499ms a 499ms a 1999ms a', { a });
      const expected = '   a 1999ms  a 1999ms a';
      expectObservable(input.pipe(coalesceDuplicates(2_000, rx))).toBe(expected, { a });
    });
  });

  it('keeps separate windows for interleaved keys', () => {
    rx.run(({ hot, expectObservable }) => {
      const input = hot('  a 1499ms b 499ms a 999ms b 499ms b', { a, b });
      const expected = '   a 1499ms b 499ms a 1499ms     b';
      expectObservable(input.pipe(coalesceDuplicates(2_000, rx))).toBe(expected, { a, b });
    });
  });
});
