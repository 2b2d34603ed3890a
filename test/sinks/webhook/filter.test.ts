import { from, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { webhookEntrySchema } from '../../../src/config/schema.js';
import type { Transition } from '../../../src/core/session.js';
import { openDeliveryStore } from '../../../src/sinks/webhook/delivery-store.js';
import { isDeliverable, matchesWebhook } from '../../../src/sinks/webhook/filter.js';
import { startWebhooks } from '../../../src/sinks/webhook/index.js';
import type { Post } from '../../../src/sinks/webhook/post.js';
import { testCtx } from './ctx.js';
import { counterIds, entry, transition } from './transitions.js';

/**
 * Runs startWebhooks on virtual time with a receiver that accepts everything at once, and returns
 * what was posted: [webhook url path, session id, delivery id] in order, plus the log lines.
 */
const deliverAll = (webhooks: Record<string, unknown>[], transitions: readonly Transition[], exclude: string[] = []) => {
  const rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  const posted: [string, string, string][] = [];
  const { ctx, lines } = testCtx({ webhooks, exclude_cwd_substrings: exclude }, rx);
  rx.run(() => {
    const post: Post = (request) => {
      posted.push([new URL(request.url).pathname, (JSON.parse(request.body) as { session_id: string }).session_id, request.id]);
      return of({ status: 200, statusText: 'OK', body: '' });
    };
    const stop = startWebhooks(from(transitions), ctx, { post, makeId: counterIds(), version: 'test', delays: [], store: openDeliveryStore(':memory:') });
    rx.schedule(() => void stop(), 10);
  });
  return { posted, lines };
};

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
  it('accepts "active" in events (a named state, as in default_filter) and rejects unknown ones', () => {
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

describe('startWebhooks: filtering', () => {
  it('sends each transition only to the entries whose filters it passes', () => {
    const { posted, lines } = deliverAll(
      [
        { name: 'waits', url: 'http://127.0.0.1:9/waits', events: ['waiting'] },
        { name: 'codex', url: 'http://127.0.0.1:9/codex', agents: ['codex'] },
        { name: 'all', url: 'http://127.0.0.1:9/all' },
        { name: 'off', url: 'http://127.0.0.1:9/off', enabled: false },
      ],
      [
        transition({ sessionId: 'a', to: 'waiting' }),
        transition({ sessionId: 'b', agent: 'codex', from: 'waiting', to: 'thinking' }),
        transition({ sessionId: 'c', isSidechain: true }),
        transition({ sessionId: 'd', cwd: '/tmp/scratch/x' }),
      ],
      ['/tmp/scratch'],
    );
    expect(posted).toEqual([
      ['/waits', 'a', 'd1'],
      ['/all', 'a', 'd2'],
      ['/codex', 'b', 'd3'],
      ['/all', 'b', 'd4'],
    ]);
    expect(lines).toEqual([]);
  });

  it('a transition that cannot be serialised fails alone (one line), and the next one is still delivered', () => {
    const { posted, lines } = deliverAll([{ name: 'h', url: 'http://127.0.0.1:9/h' }], [transition({ sessionId: 'bad', at: Number.NaN }), transition({ sessionId: 'good' })]);
    expect(posted).toEqual([['/h', 'good', 'd2']]);
    expect(lines).toEqual(['warn webhook "h": delivery d1 could not be built: Invalid time value']);
  });
});
