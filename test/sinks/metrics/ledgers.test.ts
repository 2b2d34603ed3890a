import { describe, expect, it } from 'vitest';
import type { SessionKey, SessionState, TokenCounts } from '../../../src/core/session.js';
import { createActivityLedger, type ListedSession } from '../../../src/sinks/metrics/activity-ledger.js';
import { createUsageLedger } from '../../../src/sinks/metrics/usage-ledger.js';
import { emptySession } from '../../../src/streams/empty-session.js';

/**
 * The two ledgers behind /metrics, on their own: the usage ledger looks only at the sessions a
 * frame names (what a running monitor pays on each change), and the activity ledger takes the
 * scrape's listed sessions with their activities.
 */
const session = (id: string, tokens: Partial<TokenCounts> = {}, extra: Partial<SessionState> = {}): SessionState => ({
  ...emptySession('claude', id),
  model: 'claude-sonnet-4',
  tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0, ...tokens },
  ...extra,
});
const mapOf = (...states: SessionState[]): Map<SessionKey, SessionState> => new Map(states.map((s) => [`claude:${s.sessionId}` as SessionKey, s]));
const inputOf = (ledger: ReturnType<typeof createUsageLedger>): number =>
  [...ledger.totals().tokens.values()].filter((t) => t.kind === 'input').reduce((sum, t) => sum + t.value, 0);
const always = (): boolean => true;

describe('usage ledger', () => {
  it('observeKeys adds the growth of the named sessions only; the others wait for their turn', () => {
    const ledger = createUsageLedger();
    ledger.baseline(mapOf(session('a', { input: 100 }), session('b', { input: 100 })), always);
    const grown = mapOf(session('a', { input: 150 }), session('b', { input: 300 }));
    ledger.observeKeys(grown, ['claude:a'], always);
    expect(inputOf(ledger)).toBe(50);
    ledger.observeKeys(grown, ['claude:b'], always);
    expect(inputOf(ledger)).toBe(250);
    // Looking again at unchanged states adds nothing.
    ledger.observeKeys(grown, ['claude:a', 'claude:b'], always);
    ledger.observe(grown, always);
    expect(inputOf(ledger)).toBe(250);
  });

  it('a named session that left is forgotten: when it comes back, all its usage is new', () => {
    const ledger = createUsageLedger();
    ledger.baseline(mapOf(session('a', { input: 100 })), always);
    ledger.observeKeys(mapOf(), ['claude:a'], always);
    ledger.observeKeys(mapOf(session('a', { input: 120 })), ['claude:a'], always);
    expect(inputOf(ledger)).toBe(120);
  });

  it('counts nothing before the baseline, and a shrinking total moves the baseline only', () => {
    const ledger = createUsageLedger();
    ledger.observeKeys(mapOf(session('a', { input: 100 })), ['claude:a'], always);
    expect(inputOf(ledger)).toBe(0);
    ledger.baseline(mapOf(session('a', { input: 100 })), always);
    ledger.observeKeys(mapOf(session('a', { input: 40 })), ['claude:a'], always);
    ledger.observeKeys(mapOf(session('a', { input: 70 })), ['claude:a'], always);
    expect(inputOf(ledger)).toBe(30);
  });
});

describe('activity ledger', () => {
  const listedOf = (entries: [SessionState, ListedSession['activity']][]): Map<SessionKey, ListedSession> =>
    new Map(entries.map(([s, activity]) => [`claude:${s.sessionId}` as SessionKey, { session: s, activity }]));
  const seconds = (totals: ReadonlyMap<string, { activity: string; seconds: number }>, activity: string): number =>
    [...totals.values()].filter((t) => t.activity === activity).reduce((sum, t) => sum + t.seconds, 0);

  it('counts listed sessions from the first scrape that sees them, and closes a session that left the listing at its window edge', () => {
    const ledger = createActivityLedger();
    const a = session('a', {}, { lastActivityAt: 1_000 });
    const b = session('b', {}, { lastActivityAt: 1_000 });
    ledger.totals(listedOf([[a, 'waiting'], [b, 'idle']]), 10_000, () => undefined, () => Number.POSITIVE_INFINITY);
    // b is no longer listed at 40 s; its window edge was 25 s.
    const totals = ledger.totals(listedOf([[a, 'waiting']]), 40_000, (key) => (key === 'claude:b' ? b : undefined), () => 25_000);
    expect(seconds(totals, 'waiting')).toBe(30);
    expect(seconds(totals, 'idle')).toBe(15);
  });

  it('a changed activity closes the open interval at the scrape and opens the next', () => {
    const ledger = createActivityLedger();
    const a = session('a');
    ledger.totals(listedOf([[a, 'thinking']]), 0, () => a, () => Number.POSITIVE_INFINITY);
    ledger.totals(listedOf([[a, 'waiting']]), 5_000, () => a, () => Number.POSITIVE_INFINITY);
    const totals = ledger.totals(listedOf([[a, 'waiting']]), 8_000, () => a, () => Number.POSITIVE_INFINITY);
    expect(seconds(totals, 'thinking')).toBe(5);
    expect(seconds(totals, 'waiting')).toBe(3);
  });
});
