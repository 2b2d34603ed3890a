import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionsState } from '../../../src/core/contracts.js';
import { NotifierUnavailableError, type Notify } from '../../../src/sinks/notify/desktop.js';
import { startNotifier } from '../../../src/sinks/notify/index.js';
import type { DesktopNotification } from '../../../src/sinks/notify/message.js';
import { testCtx } from '../webhook/ctx.js';
import { session, stateOf } from './waits.js';

// The sink on a virtual clock: states are pushed (each session answered at 0 unless told), then
// `flush()` runs the scheduler to the last pending timer. No real time passes.
describe('startNotifier', () => {
  let scheduler: TestScheduler;
  let input: Subject<SessionsState>;
  let shown: DesktopNotification[];
  const recording: Notify = async (n) => {
    shown.push(n);
  };
  /** Lets the adapter's promise settle (microtasks and I/O callbacks; no clock involved). */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  /** The answers' time: the virtual clock starts at 0, and 0 means "no record". */
  const ANSWERED_AT = 1;
  const waiting = (id: string, over: Parameters<typeof session>[3] = {}, at = ANSWERED_AT) => session(id, 'assistant', at, over);

  beforeEach(() => {
    scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    scheduler.maxFrames = Number.POSITIVE_INFINITY;
    input = new Subject<SessionsState>();
    shown = [];
  });

  it('does nothing when notifications are off', () => {
    const { ctx } = testCtx({ notifications: false }, scheduler);
    const stop = startNotifier(input, ctx, { notify: recording });
    input.next(stateOf([waiting('s1')]));
    scheduler.flush();
    expect(shown).toEqual([]);
    void stop();
  });

  it('notifies once after notify_after_sec with project, agent and duration; never for sub-agents', () => {
    const { ctx } = testCtx({ notifications: true, notify_after_sec: 45 }, scheduler);
    const stop = startNotifier(input, ctx, { notify: recording });
    input.next(stateOf([waiting('main', { cwd: '/home/dev/shop' }), waiting('helper', { cwd: '/home/dev/shop', isSidechain: true })]));
    scheduler.flush();
    expect(scheduler.now()).toBe(ANSWERED_AT + 45_000);
    expect(shown).toEqual([{ title: 'shop is waiting for you', body: 'Claude has been waiting for input for 45 s.' }]);
    void stop();
  });

  it('never notifies for a session hidden by exclude_cwd_substrings', () => {
    const { ctx } = testCtx({ notifications: true, exclude_cwd_substrings: ['/private/'] }, scheduler);
    const stop = startNotifier(input, ctx, { notify: recording });
    input.next(stateOf([waiting('hidden', { cwd: '/home/dev/private/notes' }), waiting('shown', { cwd: '/home/dev/shop' })]));
    scheduler.flush();
    expect(shown.map((n) => n.title)).toEqual(['shop is waiting for you']);
    void stop();
  });

  it('stops timers on teardown', () => {
    const { ctx } = testCtx({ notifications: true }, scheduler);
    const stop = startNotifier(input, ctx, { notify: recording });
    input.next(stateOf([waiting('s1')]));
    void stop();
    scheduler.flush();
    expect(shown).toEqual([]);
  });

  it('reports a missing notifier once and stops calling it', async () => {
    const { ctx, lines } = testCtx({ notifications: true, notify_after_sec: 5 }, scheduler);
    let calls = 0;
    const missing: Notify = () => {
      calls += 1;
      return Promise.reject(new NotifierUnavailableError('desktop notifications are off: notify-send was not found on PATH'));
    };
    const stop = startNotifier(input, ctx, { notify: missing });
    input.next(stateOf([waiting('a'), waiting('b')]));
    scheduler.flush();
    await settle();
    input.next(stateOf([waiting('a'), waiting('b'), waiting('c', {}, scheduler.now())]));
    scheduler.flush();
    await settle();
    expect(calls).toBe(2);
    expect(lines).toEqual(['warn desktop notifications are off: notify-send was not found on PATH']);
    void stop();
  });

  it('reports other failures once per message and keeps trying', async () => {
    const { ctx, lines } = testCtx({ notifications: true, notify_after_sec: 5 }, scheduler);
    let calls = 0;
    const flaky: Notify = () => {
      calls += 1;
      return Promise.reject(new Error('notify-send failed: no D-Bus session'));
    };
    const stop = startNotifier(input, ctx, { notify: flaky });
    input.next(stateOf([waiting('a')]));
    scheduler.flush();
    await settle();
    input.next(stateOf([waiting('a'), waiting('b', {}, scheduler.now())]));
    scheduler.flush();
    await settle();
    expect(calls).toBe(2);
    expect(lines).toEqual(['warn desktop notification failed: notify-send failed: no D-Bus session']);
    void stop();
  });
});
