import { describe, it } from 'vitest';
import { batchSync } from '../../src/streams/batch.js';
import { rx } from '../helpers/marbles.js';

describe('batchSync', () => {
  it('emits each synchronous burst as one array in the same virtual frame', () => {
    const scheduler = rx();
    scheduler.run(({ hot, expectObservable }) => {
      const source$ = hot('(abc) 5ms d 3ms (ef|)');
      expectObservable(source$.pipe(batchSync(scheduler))).toBe('x 9ms y 3ms (z|)', { x: ['a', 'b', 'c'], y: ['d'], z: ['e', 'f'] });
    });
  });

  it('flushes what it holds before an error', () => {
    const scheduler = rx();
    scheduler.run(({ hot, expectObservable }) => {
      const source$ = hot('(ab#)');
      expectObservable(source$.pipe(batchSync(scheduler))).toBe('(x#)', { x: ['a', 'b'] });
    });
  });
});
