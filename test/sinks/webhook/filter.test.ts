import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { webhookEntrySchema } from '../../../src/config/schema.js';
import { webhookDeliveries, type DeliveryDeps } from '../../../src/sinks/webhook/deliver.js';
import { isDeliverable, matchesWebhook } from '../../../src/sinks/webhook/filter.js';
import { counterIds, entry, transition } from './transitions.js';

/** Delivery dependencies whose receiver accepts everything at once (200), on virtual time. */
const acceptingDeps = (
  rx: TestScheduler,
  cold: Parameters<Parameters<TestScheduler['run']>[0]>[0]['cold'],
  extra: Partial<DeliveryDeps> = {},
): DeliveryDeps => ({
  post: () => cold('(r|)', { r: { status: 200, statusText: 'OK', body: '' } }),
  scheduler: rx,
  delays: [],
  timeoutMs: 1_000,
  queueCapacity: 10,
  makeId: counterIds(),
  version: 'test',
  ...extra,
});

describe('matchesWebhook', () => {
  // prettier-ignore
  const cases = [
    { name: 'no filters: everything',            hook: entry(),                                         t: transition(),                                  expected: true },
    { name: 'events filters on the target state', hook: entry({ events: ['waiting'] }),                  t: transition({ from: 'waiting', to: 'idle' }),   expected: false },
    { name: 'events: target state listed',        hook: entry({ events: ['idle', 'waiting'] }),          t: transition({ to: 'waiting' }),                 expected: true },
    { name: 'agents: agent not listed',           hook: entry({ agents: ['codex'] }),                    t: transition({ agent: 'claude' }),               expected: false },
    { name: 'agents: agent listed',               hook: entry({ agents: ['codex', 'claude'] }),          t: transition({ agent: 'claude' }),               expected: true },
    { name: 'both filters must pass',             hook: entry({ events: ['waiting'], agents: ['pi'] }), t: transition({ agent: 'pi', to: 'thinking' }),   expected: false },
    { name: 'events: "active" takes a busy state', hook: entry({ events: ['active'] }),                   t: transition({ from: 'waiting', to: 'writing' }), expected: true },
    { name: 'events: "active" skips waiting/idle', hook: entry({ events: ['active'] }),                   t: transition({ from: 'writing', to: 'waiting' }), expected: false },
    { name: 'disabled: nothing',                  hook: entry({ enabled: false }),                       t: transition(),                                  expected: false },
  ];
  it.each(cases)('$name', ({ hook, t, expected }) => {
    expect(matchesWebhook(hook, t)).toBe(expected);
  });
});

describe('webhook entry schema', () => {
  it('accepts "active" in events (a named state of the spec, as in default_filter) and rejects unknown ones', () => {
    expect(webhookEntrySchema.parse({ name: 'n', url: 'http://127.0.0.1/h', events: ['active', 'waiting'] }).events).toEqual(['active', 'waiting']);
    expect(webhookEntrySchema.safeParse({ name: 'n', url: 'http://127.0.0.1/h', events: ['busy'] }).success).toBe(false);
  });
});

describe('isDeliverable', () => {
  it('keeps sub-agent sessions and excluded directories off the wire', () => {
    expect(isDeliverable(transition(), [])).toBe(true);
    expect(isDeliverable(transition({ isSidechain: true }), [])).toBe(false);
    expect(isDeliverable(transition({ cwd: '/home/dev/secret/x' }), ['secret/'])).toBe(false);
    expect(isDeliverable(transition({ cwd: '/home/dev/shop' }), ['secret/', ''])).toBe(true);
  });
});

describe('webhookDeliveries: filtering (marbles)', () => {
  let rx: TestScheduler;
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('sends each transition only to the entries whose filters it passes', () => {
    rx.run(({ hot, cold, expectObservable }) => {
      const toWaiting = transition({ sessionId: 'a', to: 'waiting' });
      const codexThinking = transition({ sessionId: 'b', agent: 'codex', from: 'waiting', to: 'thinking' });
      const sidechain = transition({ sessionId: 'c', isSidechain: true });
      const excluded = transition({ sessionId: 'd', cwd: '/tmp/scratch/x' });
      const input = hot('a 9ms b 9ms c 9ms d', { a: toWaiting, b: codexThinking, c: sidechain, d: excluded });
      const deps = acceptingDeps(rx, cold, { excludeCwdSubstrings: ['/tmp/scratch'] });
      const entries = [
        entry({ name: 'waits', events: ['waiting'] }),
        entry({ name: 'codex', agents: ['codex'] }),
        entry({ name: 'all' }),
        entry({ name: 'off', enabled: false }),
      ];
      const ok = (name: string, id: string) => ({ kind: 'delivered', entry: name, id, status: 200, attempts: 1 });
      expectObservable(webhookDeliveries(input, entries, deps)).toBe('(xy) 6ms (zw)', {
        x: ok('waits', 'd1'),
        y: ok('all', 'd2'),
        z: ok('codex', 'd3'),
        w: ok('all', 'd4'),
      });
    });
  });
});

describe('webhookDeliveries: a transition that cannot be sent', () => {
  it('fails alone (a report), and the next one is still delivered', () => {
    const rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    rx.run(({ hot, cold, expectObservable }) => {
      const broken = transition({ sessionId: 'bad', at: Number.NaN });
      const fine = transition({ sessionId: 'good' });
      const deps = acceptingDeps(rx, cold);
      expectObservable(webhookDeliveries(hot('ab', { a: broken, b: fine }), [entry({ name: 'h' })], deps)).toBe('fd', {
        f: { kind: 'failed', entry: 'h', id: 'd1', attempts: 0, error: expect.any(RangeError) },
        d: { kind: 'delivered', entry: 'h', id: 'd2', status: 200, attempts: 1 },
      });
    });
  });
});
