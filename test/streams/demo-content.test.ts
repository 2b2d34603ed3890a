import { describe, expect, it } from 'vitest';
import { startPipeline } from '../../src/app/pipeline.js';
import { AGENT_KINDS } from '../../src/core/agents.js';
import type { SessionEvent } from '../../src/core/session.js';
import { demoSource } from '../../src/demo/source.js';
import { DEMO_SESSIONS } from '../../src/sources/agents.js';
import { makeDemoNotifierSink } from '../../src/sinks/notify/demo.js';
import { toDetail } from '../../src/streams/views.js';
import { selectVisible } from '../../src/streams/visibility.js';
import { EPOCH, memoryLogger, rx, testCtx } from '../helpers/marbles.js';

const M = 60_000;

/** The demo's sessions as the first frame after start shows them (only the listed ones). */
const firstDetails = () => {
  const scheduler = rx();
  let details: ReturnType<typeof toDetail>[] = [];
  scheduler.run(() => {
    const pipeline = startPipeline(testCtx(scheduler), { sources: {}, agents: [...AGENT_KINDS], demo: true });
    pipeline.state$.subscribe((state) => {
      details = selectVisible(state.sessions.values(), EPOCH, pipeline.visibility).map((s) => toDetail(s, { now: EPOCH }));
    });
    scheduler.schedule(() => void pipeline.dispose(), 1);
  });
  return details;
};

describe('the demo shows the product', () => {
  it('every listed session has counted tokens and a cost from the price table at start', () => {
    const details = firstDetails();
    expect(details).toHaveLength(DEMO_SESSIONS.filter((s) => !s.meta.isSidechain).length);
    for (const d of details) {
      expect(d.input_tokens + d.output_tokens, d.session_id).toBeGreaterThan(0);
      expect(d.cost_source, `${d.agent} ${d.model}`).toBe('price-table');
      expect(d.cost_usd, d.session_id).toBeGreaterThan(0.001);
    }
    // Not all the same size either.
    expect(new Set(details.map((d) => d.cost_usd.toFixed(2))).size).toBeGreaterThan(5);
  });

  it('no two cards show the same messages', () => {
    const details = firstDetails();
    const lastTwo = details.map((d) => d.recent_messages.slice(-2).map((m) => m.text).join(' | '));
    expect(new Set(lastTwo).size).toBe(details.length);
  });

  it('no conversation repeats itself, though the sessions loop', () => {
    for (const d of firstDetails()) {
      const texts = d.recent_messages.map((m) => m.text);
      expect(texts.length, d.session_id).toBeGreaterThanOrEqual(1);
      expect(new Set(texts).size, d.session_id).toBe(texts.length);
    }
  });

  it('every session starts with minutes of history, so its sparkline has bars from the first frame', () => {
    const earliest = new Map<string, number>();
    demoSource(rx(), DEMO_SESSIONS, [...AGENT_KINDS], () => EPOCH)
      .subscribe((e: SessionEvent) => {
        if (e.type !== 'turn') return;
        earliest.set(e.sessionId, Math.min(earliest.get(e.sessionId) ?? EPOCH, e.at ?? EPOCH));
      })
      .unsubscribe();
    for (const spec of DEMO_SESSIONS) expect(EPOCH - (earliest.get(spec.sessionId) ?? EPOCH), spec.sessionId).toBeGreaterThanOrEqual(5 * M);
  });

  it('one waiting session raises a sample notification, written as information, once per wait', () => {
    const scheduler = rx();
    const log = memoryLogger();
    scheduler.run(() => {
      const pipeline = startPipeline({ ...testCtx(scheduler), log }, { sources: {}, agents: [...AGENT_KINDS], demo: true, sinks: [makeDemoNotifierSink()] });
      scheduler.schedule(() => void pipeline.dispose(), 5 * M);
    });
    const samples = log.lines.filter((line) => line.startsWith('info --demo: '));
    expect(samples[0]).toBe('info --demo: dashboard is waiting for you (sample notification, not sent)');
    // It is shown whole in the help bar of an 80-column terminal.
    expect(samples[0]?.slice('info '.length).length).toBeLessThanOrEqual(80);
    // A loop of that session is 70 s long: a few waits in five minutes, one notification each.
    expect(samples.length).toBeGreaterThanOrEqual(3);
    expect(samples.length).toBeLessThanOrEqual(5);
  });
});
