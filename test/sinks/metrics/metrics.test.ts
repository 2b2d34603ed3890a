import { Subject, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startPipeline, type Pipeline } from '../../../src/app/pipeline.js';
import type { Config } from '../../../src/config/effective.js';
import type { SessionEvent } from '../../../src/core/session.js';
import { clearLimitsRead, recordLimitsRead } from '../../../src/limits/last-read.js';
import type { Metrics } from '../../../src/sinks/metrics/index.js';
import { EPOCH, testConfig, testCtx } from '../../helpers/marbles.js';
import { pipelineMetrics, parseExposition, sample } from './exposition.js';

/**
 * Every metric's value on the real pipeline in virtual time: events are pushed at chosen
 * instants, the clock is advanced, and the exposition is read back as Prometheus would.
 */
interface Harness {
  readonly at: (ms: number, ...events: SessionEvent[]) => void;
  /** Runs everything due up to `ms` after the start and leaves the clock exactly there. */
  readonly advanceTo: (ms: number) => void;
  readonly scrape: () => Promise<Map<string, number>>;
  readonly metrics: Metrics;
  readonly pipeline: Pipeline;
}

const running: (() => void)[] = [];
afterEach(() => {
  for (const stop of running.splice(0)) stop();
  clearLimitsRead();
});

const harness = (config: Partial<Config> = {}, history: SessionEvent[] = []): Harness => {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
  const events = new Subject<SessionEvent>();
  const ctx = testCtx(scheduler, testConfig(config));
  const pipeline = startPipeline(ctx, {
    sources: {
      claude: () => {
        // History first (the first discovery), then ready, then live events.
        scheduler.schedule(() => {
          for (const event of history) events.next(event);
          events.next({ type: 'ready', agent: 'claude' });
        }, 0);
        return events;
      },
    },
    agents: ['claude'],
  });
  const metrics = pipelineMetrics(pipeline, { ...ctx, scheduler });
  running.push(() => {
    metrics.stop();
    void pipeline.dispose();
  });
  const advanceTo = (ms: number): void => {
    scheduler.schedule(() => undefined, ms - scheduler.now());
    scheduler.maxFrames = ms;
    scheduler.flush();
  };
  advanceTo(0);
  return {
    at: (ms, ...list) => void scheduler.schedule(() => list.forEach((event) => events.next(event)), ms - scheduler.now()),
    advanceTo,
    scrape: async () => parseExposition(await metrics.render()),
    metrics,
    pipeline,
  };
};

const meta = (sessionId: string, cwd = `/work/${sessionId}`, extra: object = {}): SessionEvent => ({
  agent: 'claude',
  sessionId,
  type: 'meta',
  patch: { cwd, model: 'claude-sonnet-4', ...extra },
});
const prompt = (sessionId: string, atMs: number): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at: EPOCH + atMs, role: 'user', text: 'go' });
const answer = (sessionId: string, atMs: number): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at: EPOCH + atMs, role: 'assistant', text: 'done' });
const usage = (sessionId: string, atMs: number, messageId: string, input: number, output: number): SessionEvent => ({
  agent: 'claude',
  sessionId,
  type: 'usage',
  at: EPOCH + atMs,
  messageId,
  tokens: { input, output, cacheCreation: 0, cacheRead: 10 },
});

describe('metrics on the pipeline', () => {
  it('agentwatch_sessions counts listed sessions by agent and activity; hidden, excluded and old ones are left out', async () => {
    const h = harness({ exclude_cwd_substrings: ['secret'] }, [
      meta('waits'),
      prompt('waits', -60_000),
      answer('waits', -40_000),
      meta('thinks'),
      prompt('thinks', -5_000),
      meta('sub', '/work/sub', { isSidechain: true }),
      prompt('sub', -5_000),
      meta('hidden', '/work/secret/x'),
      prompt('hidden', -5_000),
      meta('old'),
      answer('old', -3 * 3_600_000),
    ]);
    h.advanceTo(1_000);
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_sessions', { agent: 'claude', activity: 'waiting' })).toBe(1);
    expect(sample(values, 'agentwatch_sessions', { agent: 'claude', activity: 'thinking' })).toBe(1);
    expect([...values.keys()].filter((key) => key.startsWith('agentwatch_sessions{'))).toHaveLength(2);
    expect(sample(values, 'agentwatch_ready')).toBe(1);
    expect(sample(values, 'agentwatch_discovery_duration_seconds')).toBe(0);
  });

  it('agentwatch_ready and the discovery duration are 0 until the first discovery ends', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
    const ctx = testCtx(scheduler);
    const pipeline = startPipeline(ctx, { sources: { claude: () => new Subject<SessionEvent>() }, agents: ['claude'] });
    const metrics = pipelineMetrics(pipeline, { ...ctx, scheduler });
    running.push(() => {
      metrics.stop();
      void pipeline.dispose();
    });
    const values = parseExposition(await metrics.render());
    expect(sample(values, 'agentwatch_ready')).toBe(0);
    expect(sample(values, 'agentwatch_discovery_duration_seconds')).toBe(0);
  });

  it('agentwatch_sessions_waiting_too_long counts a session once it waited notify_after_sec since the answer, until its user acts', async () => {
    const h = harness({ notify_after_sec: 30 }, [meta('s')]);
    h.at(1_000, prompt('s', 1_000));
    h.at(2_000, answer('s', 2_000));
    // The wait counts from the answer (2 s): 30 s later is 32 s.
    h.advanceTo(31_000);
    expect(sample(await h.scrape(), 'agentwatch_sessions_waiting_too_long', { agent: 'claude' })).toBeUndefined();
    h.advanceTo(32_000);
    expect(sample(await h.scrape(), 'agentwatch_sessions_waiting_too_long', { agent: 'claude' })).toBe(1);
    // Shown idle after 2 minutes, the session still waits for its user.
    h.advanceTo(123_000);
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_sessions_waiting_too_long', { agent: 'claude' })).toBe(1);
    expect(sample(values, 'agentwatch_sessions', { agent: 'claude', activity: 'idle' })).toBe(1);
    h.at(130_000, prompt('s', 130_000));
    h.advanceTo(131_000);
    expect(sample(await h.scrape(), 'agentwatch_sessions_waiting_too_long', { agent: 'claude' })).toBeUndefined();
  });

  it('agentwatch_transitions_total counts each change once, never the first discovery, never sub-agents', async () => {
    const h = harness({}, [meta('s'), prompt('s', -600_000), answer('s', -590_000), meta('sub', '/w/sub', { isSidechain: true })]);
    h.at(1_000, prompt('s', 1_000), prompt('sub', 1_000));
    h.at(5_000, answer('s', 5_000), answer('sub', 5_000));
    h.advanceTo(20_000);
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_transitions_total', { agent: 'claude', from: 'idle', to: 'thinking' })).toBe(1);
    expect(sample(values, 'agentwatch_transitions_total', { agent: 'claude', from: 'thinking', to: 'waiting' })).toBe(1);
    expect([...values.keys()].filter((key) => key.startsWith('agentwatch_transitions_total{'))).toHaveLength(2);
  });

  it('agentwatch_activity_seconds_total adds exact intervals between transitions and only grows', async () => {
    const h = harness({ window_minutes: 5 }, [meta('s'), answer('s', -150_000)]);
    h.advanceTo(1_000);
    // The first scrape opens the idle interval at 1 s.
    expect(sample(await h.scrape(), 'agentwatch_activity_seconds_total', { agent: 'claude', activity: 'idle' })).toBe(0);
    h.at(11_000, prompt('s', 11_000));
    h.at(21_000, answer('s', 21_000));
    h.advanceTo(61_000);
    const values = await h.scrape();
    // idle 1 -> 11 s, thinking 11 -> 31 s (grace ends 10 s after the answer), waiting 31 -> 61 s.
    expect(sample(values, 'agentwatch_activity_seconds_total', { agent: 'claude', activity: 'idle' })).toBe(10);
    expect(sample(values, 'agentwatch_activity_seconds_total', { agent: 'claude', activity: 'thinking' })).toBe(20);
    expect(sample(values, 'agentwatch_activity_seconds_total', { agent: 'claude', activity: 'waiting' })).toBe(30);
    h.advanceTo(400_000);
    const later = await h.scrape();
    // Waiting ended at 141 s (2 min after the answer); the session left the 5-minute window at 21 s + 300 s.
    expect(sample(later, 'agentwatch_activity_seconds_total', { agent: 'claude', activity: 'waiting' })).toBe(110);
    expect(sample(later, 'agentwatch_activity_seconds_total', { agent: 'claude', activity: 'idle' })).toBe(10 + (21 + 300 - 141));
    h.advanceTo(460_000);
    expect(await h.scrape()).toEqual(later);
  });

  it('agentwatch_tokens_total and agentwatch_cost_usd_total count only usage that arrives after the first discovery', async () => {
    const h = harness({}, [meta('s'), usage('s', -60_000, 'm1', 1_000_000, 1_000)]);
    h.advanceTo(1_000);
    let values = await h.scrape();
    expect([...values.keys()].filter((key) => key.startsWith('agentwatch_tokens_total{'))).toEqual([]);
    h.at(2_000, usage('s', 2_000, 'm2', 2_000_000, 100_000));
    // The same response written again (split lines) replaces, it does not add.
    h.at(3_000, usage('s', 3_000, 'm2', 2_000_000, 100_000));
    h.advanceTo(5_000);
    values = await h.scrape();
    expect(sample(values, 'agentwatch_tokens_total', { agent: 'claude', model: 'claude-sonnet-4', kind: 'input' })).toBe(2_000_000);
    expect(sample(values, 'agentwatch_tokens_total', { agent: 'claude', model: 'claude-sonnet-4', kind: 'output' })).toBe(100_000);
    expect(sample(values, 'agentwatch_tokens_total', { agent: 'claude', model: 'claude-sonnet-4', kind: 'cache_read' })).toBe(10);
    // Sonnet rates: of the message's 2 M input, 200k at $3/M and the rest past the tier at $6/M;
    // 0.1 M output at $15/M; 10 cache reads at $0.3/M.
    expect(sample(values, 'agentwatch_cost_usd_total', { agent: 'claude', model: 'claude-sonnet-4' })).toBeCloseTo(0.6 + 10.8 + 1.5 + 0.000003, 6);
  });

  it('a restart over the same history counts no usage again', async () => {
    const history = [meta('s'), usage('s', -60_000, 'm1', 1_000_000, 1_000), usage('s', -50_000, 'm2', 5, 5)];
    const h = harness({}, history);
    h.advanceTo(10_000);
    const values = await h.scrape();
    expect([...values.keys()].filter((key) => key.startsWith('agentwatch_tokens_total{') || key.startsWith('agentwatch_cost_usd_total{'))).toEqual([]);
  });

  it('a session that appears after the first discovery counts all of its usage', async () => {
    const h = harness({}, []);
    h.at(2_000, meta('new'), usage('new', 2_000, 'm1', 300, 20));
    h.advanceTo(3_000);
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_tokens_total', { agent: 'claude', model: 'claude-sonnet-4', kind: 'input' })).toBe(300);
  });

  it('agentwatch_diagnostics_total counts diagnostics by agent and code', async () => {
    const h = harness({}, [
      { type: 'diagnostic', agent: 'claude', code: 'E_JUNK_LINE', message: 'junk', path: '/x' },
      { type: 'diagnostic', agent: 'claude', code: 'E_JUNK_LINE', message: 'junk', path: '/x' },
    ]);
    h.at(2_000, { type: 'diagnostic', agent: 'claude', code: 'E_READ', message: 'unreadable' });
    h.advanceTo(3_000);
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_diagnostics_total', { agent: 'claude', code: 'E_JUNK_LINE' })).toBe(2);
    expect(sample(values, 'agentwatch_diagnostics_total', { agent: 'claude', code: 'E_READ' })).toBe(1);
  });

  it('limits gauges show the last on-demand read with its time, and nothing before one', async () => {
    const h = harness();
    expect(sample(await h.scrape(), 'agentwatch_limit_read_timestamp_seconds')).toBe(0);
    expect([...(await h.scrape()).keys()].filter((key) => key.startsWith('agentwatch_limit_used_percent'))).toEqual([]);
    recordLimitsRead(
      {
        generated_at: '2026-03-10T09:00:00.000Z',
        rows: [
          {
            row: 'Claude',
            agent: 'claude',
            status: 'ok',
            windows: [{ label: '7-day', window_seconds: 604800, used_percent: 62.5, elapsed_percent: 40, expected_percent: 40, resets_at: null, pace: 'overutilizing' }],
          },
        ],
      },
      EPOCH,
    );
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_limit_used_percent', { agent: 'claude', row: 'Claude', window: '7-day', period: 'week', source: 'live' })).toBe(62.5);
    expect(sample(values, 'agentwatch_limit_expected_percent', { agent: 'claude', row: 'Claude', window: '7-day', period: 'week', source: 'live' })).toBe(40);
    expect(sample(values, 'agentwatch_limit_read_timestamp_seconds')).toBe(EPOCH / 1000);
  });

  it('webhook deliveries, retries and queue depth are counted by webhook name', async () => {
    const h = harness();
    h.metrics.webhooks.delivery('ci', 'delivered');
    h.metrics.webhooks.delivery('ci', 'delivered');
    h.metrics.webhooks.delivery('ci', 'failed');
    h.metrics.webhooks.retry('ci');
    h.metrics.webhooks.queueDepth('ci', 7);
    const values = await h.scrape();
    expect(sample(values, 'agentwatch_webhook_deliveries_total', { webhook: 'ci', outcome: 'delivered' })).toBe(2);
    expect(sample(values, 'agentwatch_webhook_deliveries_total', { webhook: 'ci', outcome: 'failed' })).toBe(1);
    expect(sample(values, 'agentwatch_webhook_retries_total', { webhook: 'ci' })).toBe(1);
    expect(sample(values, 'agentwatch_webhook_queue_depth', { webhook: 'ci' })).toBe(7);
  });

  it('no label carries a session id or a path', async () => {
    const h = harness({}, [meta('abc-session-id', '/home/someone/project'), prompt('abc-session-id', -1_000)]);
    h.at(2_000, answer('abc-session-id', 2_000), usage('abc-session-id', 2_000, 'm', 1, 1));
    h.advanceTo(60_000);
    const text = await h.metrics.render();
    expect(text).not.toContain('abc-session-id');
    expect(text).not.toContain('/home/someone');
  });
});
