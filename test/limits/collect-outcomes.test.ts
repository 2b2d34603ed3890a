import { rx } from '../helpers/marbles.js';
import { describe, it } from 'vitest';
import { collectOutcomes } from '../../src/limits/fetch-limits.js';
import type { Outcome } from '../../src/limits/types.js';


const ok: Outcome = { kind: 'ok', agent: 'claude', reports: [] };
const skipped: Outcome = { kind: 'skipped', agent: 'codex', reason: 'no-credential', message: 'run codex' };
const drift: Outcome = { kind: 'failed', agent: 'grok', code: 'E_SCHEMA_DRIFT', message: 'shape changed' };

describe('collectOutcomes (forkJoin of a record of providers)', () => {
  it('waits for the slowest provider and emits one record with every outcome', () => {
    rx().run(({ cold, expectObservable }) => {
      const result$ = collectOutcomes({
        claude: cold('1s (a|)', { a: ok }),
        codex: cold('200ms (b|)', { b: skipped }),
        grok: cold('3s (c|)', { c: drift }),
      });
      expectObservable(result$).toBe('3s (r|)', { r: { claude: ok, codex: skipped, grok: drift } });
    });
  });

  it('turns a provider error into a failed outcome instead of erroring the whole command', () => {
    rx().run(({ cold, expectObservable }) => {
      const result$ = collectOutcomes({ claude: cold('1s (a|)', { a: ok }), kimi: cold('500ms #', undefined, new Error('socket hang up')) });
      expectObservable(result$).toBe('1s (r|)', {
        r: { claude: ok, kimi: { kind: 'failed', agent: 'kimi', code: 'E_INTERNAL', message: 'socket hang up' } },
      });
    });
  });

  it('turns a provider that completes empty into a failed outcome (forkJoin would emit nothing)', () => {
    rx().run(({ cold, expectObservable }) => {
      const result$ = collectOutcomes({ claude: cold('1s (a|)', { a: ok }), cursor: cold('2s |') });
      expectObservable(result$).toBe('2s (r|)', {
        r: { claude: ok, cursor: { kind: 'failed', agent: 'cursor', code: 'E_INTERNAL', message: 'the provider produced no result' } },
      });
    });
  });

  it('subscribes to every provider at once (concurrent, not one after another)', () => {
    rx().run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('1s (a|)', { a: ok });
      const b = cold('1s (b|)', { b: skipped });
      expectObservable(collectOutcomes({ claude: a, codex: b })).toBe('1s (r|)', { r: { claude: ok, codex: skipped } });
      expectSubscriptions(a.subscriptions).toBe('^ 999ms !');
      expectSubscriptions(b.subscriptions).toBe('^ 999ms !');
    });
  });

  it('emits an empty record at once when no agent is requested', () => {
    rx().run(({ expectObservable }) => {
      expectObservable(collectOutcomes({})).toBe('(r|)', { r: {} });
    });
  });
});
