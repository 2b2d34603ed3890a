import { merge, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startPipeline, type Pipeline } from '../../../src/app/pipeline.js';
import type { SessionEvent } from '../../../src/core/session.js';
import { makeNotifierSink } from '../../../src/sinks/notify/index.js';
import type { DesktopNotification } from '../../../src/sinks/notify/message.js';
import { openDeliveryStore } from '../../../src/sinks/webhook/delivery-store.js';
import { makeWebhookSink } from '../../../src/sinks/webhook/index.js';
import type { Post } from '../../../src/sinks/webhook/post.js';
import { EPOCH, memoryLogger, rx, testConfig, testCtx } from '../../helpers/marbles.js';
import { counterIds, entry } from './transitions.js';

// Both sinks plugged into the real pipeline (src/app/pipeline.ts) as `sinks`, on virtual time: a claude
// session answers at 5 s, so it turns waiting at 15 s (10 s grace) and idle at 125 s.
describe('webhook and notifier sinks in the real pipeline', () => {
  it('deliver each transition and notify once the session has waited notify_after_sec', () => {
    const scheduler = rx();
    const posted: { at: number; body: Record<string, unknown> }[] = [];
    const shown: { at: number; notification: DesktopNotification }[] = [];
    const log = memoryLogger();
    scheduler.run(({ hot }) => {
      const post: Post = (request) => {
        posted.push({ at: scheduler.now(), body: JSON.parse(request.body) as Record<string, unknown> });
        return of({ status: 204, statusText: 'No Content', body: '' });
      };
      const config = testConfig({ notifications: true, notify_after_sec: 30, webhooks: [entry({ name: 'all', url: 'http://127.0.0.1:9/h' })] });
      const ctx = { ...testCtx(scheduler, config), log };
      const events: Record<string, SessionEvent> = {
        r: { type: 'ready', agent: 'claude' },
        m: { agent: 'claude', sessionId: 's1', type: 'meta', patch: { cwd: '/home/dev/shop' } },
        p: { agent: 'claude', sessionId: 's1', type: 'turn', at: EPOCH, role: 'user', text: 'go' },
        a: { agent: 'claude', sessionId: 's1', type: 'turn', at: EPOCH + 5_000, role: 'assistant', text: 'done' },
      };
      const pipeline: Pipeline = startPipeline(ctx, {
        sources: { claude: () => merge(hot('r', events), hot('(mp) 4996ms a', events)) },
        agents: ['claude'],
        sinks: [
          makeWebhookSink({ post, makeId: counterIds(), version: '1.0.0', store: openDeliveryStore(':memory:') }),
          makeNotifierSink({
            notify: async (notification) => {
              shown.push({ at: scheduler.now(), notification });
            },
          }),
        ],
      });
      scheduler.schedule(() => void pipeline.dispose(), 200_000);
    });

    expect(posted).toEqual([
      {
        at: 15_000,
        body: { id: 'd1', event: 'state_transition', session_id: 's1', agent: 'claude', from: 'thinking', to: 'waiting', project_path: '/home/dev/shop', timestamp: new Date(EPOCH + 15_000).toISOString() },
      },
      {
        at: 125_000,
        body: { id: 'd2', event: 'state_transition', session_id: 's1', agent: 'claude', from: 'waiting', to: 'idle', project_path: '/home/dev/shop', timestamp: new Date(EPOCH + 125_000).toISOString() },
      },
    ]);
    // The wait counts from the answer (5 s), not from the moment the display showed waiting.
    expect(shown).toEqual([{ at: 35_000, notification: { title: 'shop is waiting for you', body: 'Claude has been waiting for input for 30 s.' } }]);
    expect(log.lines).toEqual([]);
  });

  it('notify after a delay longer than the displayed waiting: the wait lasts until the user acts, one notification', () => {
    const scheduler = rx();
    const shown: number[] = [];
    scheduler.run(({ hot }) => {
      const ctx = testCtx(scheduler, testConfig({ notifications: true, notify_after_sec: 600 }));
      const events: Record<string, SessionEvent> = {
        r: { type: 'ready', agent: 'claude' },
        m: { agent: 'claude', sessionId: 's1', type: 'meta', patch: { cwd: '/home/dev/shop' } },
        a: { agent: 'claude', sessionId: 's1', type: 'turn', at: EPOCH + 5_000, role: 'assistant', text: 'done' },
        p: { agent: 'claude', sessionId: 's1', type: 'turn', at: EPOCH + 900_000, role: 'user', text: 'next' },
        b: { agent: 'claude', sessionId: 's1', type: 'turn', at: EPOCH + 910_000, role: 'assistant', text: 'done again' },
      };
      const pipeline: Pipeline = startPipeline(ctx, {
        sources: { claude: () => merge(hot('r', events), hot('m 4999ms a 894999ms p 9999ms b', events)) },
        agents: ['claude'],
        sinks: [makeNotifierSink({ notify: async () => void shown.push(scheduler.now()) })],
      });
      scheduler.schedule(() => void pipeline.dispose(), 2_000_000);
    });
    // Idle on screen from 125 s; notified at 605 s, and again for the next wait (910 s + 600 s).
    expect(shown).toEqual([605_000, 1_510_000]);
  });
});
