import { distinctUntilChanged, filter, map, merge, type Observable } from 'rxjs';
import { describe, it } from 'vitest';
import { startPipeline, type Pipeline, type PipelineOptions } from '../../src/app/pipeline.js';
import { AGENT_KINDS, type AgentKind } from '../../src/core/agents.js';
import type { SessionEvent, Transition } from '../../src/core/session.js';
import { createListing } from '../../src/streams/listing.js';
import type { VisibilityOptions } from '../../src/streams/visibility.js';
import { EPOCH, rx, testCtx } from '../helpers/marbles.js';

/** Records carry their own times: an event emitted at virtual `ms` is stamped EPOCH + ms. */
const at = (ms: number): number => EPOCH + ms;
const ev = {
  ready: (agent: AgentKind = 'claude'): SessionEvent => ({ type: 'ready', agent }),
  prompt: (ms: number, sessionId = 's1', agent: AgentKind = 'claude'): SessionEvent => ({ agent, sessionId, type: 'turn', at: at(ms), role: 'user', text: 'do it' }),
  answer: (ms: number): SessionEvent => ({ agent: 'claude', sessionId: 's1', type: 'turn', at: at(ms), role: 'assistant', text: 'done' }),
  call: (ms: number, name: string, callId: string): SessionEvent => ({ agent: 'claude', sessionId: 's1', type: 'tool_call', at: at(ms), name, callId }),
  result: (ms: number, callId: string): SessionEvent => ({ agent: 'claude', sessionId: 's1', type: 'tool_result', at: at(ms), callId }),
  compaction: (ms: number, phase: 'start' | 'end'): SessionEvent => ({ agent: 'claude', sessionId: 's1', type: 'compaction', at: at(ms), phase }),
};
const tr = (from: Transition['from'], to: Transition['to'], ms: number, sessionId = 's1', agent: AgentKind = 'claude'): Transition => ({
  agent,
  sessionId,
  from,
  to,
  at: at(ms),
  cwd: '',
  isSidechain: false,
});

/** Run `body` under a fresh TestScheduler with a pipeline factory bound to it. */
type Helpers = Parameters<Parameters<ReturnType<typeof rx>['run']>[0]>[0];

/**
 * Run `body` under a fresh TestScheduler with a pipeline factory bound to it. The pipeline's
 * 1 s tick never ends on its own, so every pipeline is disposed at `horizonMs` of virtual time.
 */
const marbles = (horizonMs: number, body: (tools: Helpers & { start: (options: PipelineOptions) => Pipeline }) => void): void => {
  const scheduler = rx();
  scheduler.run((helpers) => {
    const started: Pipeline[] = [];
    body({
      ...helpers,
      start: (options) => {
        const pipeline = startPipeline(testCtx(scheduler), options);
        started.push(pipeline);
        return pipeline;
      },
    });
    scheduler.schedule(() => started.forEach((pipeline) => void pipeline.dispose()), horizonMs);
  });
};
const claudeOnly = (...streams: Observable<SessionEvent>[]): PipelineOptions => ({ sources: { claude: () => merge(...streams) }, agents: ['claude'] });

describe('pipeline transitions (virtual time)', () => {
  it('damps waiting with a 10 s grace from the answer, then turns idle 2 min after it', () => {
    marbles(201_000, ({ hot, expectObservable, start }) => {
      const ready$ = hot('r', { r: ev.ready() });
      const turns$ = hot('p 4999ms a', { p: ev.prompt(0), a: ev.answer(5_000) });
      const p = start(claudeOnly(ready$, turns$));
      expectObservable(p.transitions$, '^ 200s !').toBe('15s w 109999ms i', { w: tr('thinking', 'waiting', 15_000), i: tr('waiting', 'idle', 125_000) });
    });
  });

  it('follows a tool loop: a finished tool keeps its activity, the answer ends it (no stale "running")', () => {
    marbles(141_000, ({ hot, expectObservable, start }) => {
      const ready$ = hot('r', { r: ev.ready() });
      const turns$ = hot('p 1999ms c 999ms d 999ms e 5999ms f 1999ms g', {
        p: ev.prompt(0),
        c: ev.call(2_000, 'Read', 'a'),
        d: ev.result(3_000, 'a'),
        e: ev.call(4_000, 'Bash', 'b'),
        f: ev.result(10_000, 'b'),
        g: ev.answer(12_000),
      });
      const p = start(claudeOnly(ready$, turns$));
      expectObservable(p.transitions$, '^ 140s !').toBe('2s a 1999ms b 7999ms c 9999ms d 109999ms e', {
        a: tr('thinking', 'reading', 2_000),
        b: tr('reading', 'running', 4_000),
        c: tr('running', 'thinking', 12_000),
        d: tr('thinking', 'waiting', 22_000),
        e: tr('waiting', 'idle', 132_000),
      });
    });
  });

  it('times out a pending tool after 30 s and a pending sub-agent after 20 min', () => {
    marbles(1_301_000, ({ hot, expectObservable, start }) => {
      const ready$ = hot('r', { r: ev.ready() });
      const turns$ = hot('p 999ms b 38999ms t', { p: ev.prompt(0), b: ev.call(1_000, 'Bash', 'b'), t: ev.call(40_000, 'Task', 't') });
      const p = start(claudeOnly(ready$, turns$));
      expectObservable(p.transitions$, '^ 1300s !').toBe('1s a 29999ms b 8999ms c 1199999ms d', {
        a: tr('thinking', 'running', 1_000),
        b: tr('running', 'idle', 31_000),
        c: tr('idle', 'spawning', 40_000),
        d: tr('spawning', 'idle', 1_240_000),
      });
    });
  });

  it('shows compacting until the end record, or for 30 s when none comes', () => {
    marbles(101_000, ({ hot, expectObservable, start }) => {
      const ready$ = hot('r', { r: ev.ready() });
      const turns$ = hot('p 1999ms s 5999ms e 31999ms S', {
        p: ev.prompt(0),
        s: ev.compaction(2_000, 'start'),
        e: ev.compaction(8_000, 'end'),
        S: ev.compaction(40_000, 'start'),
      });
      const p = start(claudeOnly(ready$, turns$));
      expectObservable(p.transitions$, '^ 100s !').toBe('2s a 5999ms b 21999ms c 9999ms d 29999ms e', {
        a: tr('thinking', 'compacting', 2_000),
        b: tr('compacting', 'thinking', 8_000),
        c: tr('thinking', 'idle', 30_000),
        d: tr('idle', 'compacting', 40_000),
        e: tr('compacting', 'idle', 70_000),
      });
    });
  });

  it('announces nothing while the first discovery pass replays history, nor on first sight', () => {
    marbles(101_000, ({ hot, expectObservable, start }) => {
      const ready$ = hot('2s r', { r: ev.ready() });
      const turns$ = hot('p 999ms c 48999ms n', { p: ev.prompt(0), c: ev.call(1_000, 'Read', 'a'), n: ev.prompt(50_000, 's2') });
      const p = start(claudeOnly(ready$, turns$));
      expectObservable(p.transitions$, '^ 100s !').toBe('31s a 48999ms b', { a: tr('reading', 'idle', 31_000), b: tr('thinking', 'idle', 80_000, 's2') });
    });
  });

  it('keeps running when one source fails: the failure is a counted diagnostic and counts as ready', () => {
    marbles(61_000, ({ hot, cold, expectObservable, start }) => {
      const codex$ = hot('(rp)', { r: ev.ready('codex'), p: ev.prompt(0, 'x1', 'codex') });
      const p = start({ sources: { claude: () => cold('1s #', {}, new Error('disk gone')), codex: () => codex$ }, agents: ['claude', 'codex'] });
      const ready$ = p.frame$.pipe(map((f) => `${f.state.ready}:${f.state.diagnostics['claude:E_READ'] ?? 0}`), distinctUntilChanged());
      expectObservable(ready$, '^ 5s !').toBe('a 999ms b', { a: 'false:0', b: 'true:1' });
      expectObservable(p.transitions$, '^ 60s !').toBe('30s a', { a: tr('thinking', 'idle', 30_000, 'x1', 'codex') });
    });
  });

  it('counts a source that completes without a ready event as ready', () => {
    marbles(6_000, ({ cold, expectObservable, start }) => {
      const p = start({ sources: { claude: () => cold('p 2s |', { p: ev.prompt(0) }), codex: () => cold('r', { r: ev.ready('codex') }) }, agents: ['claude', 'codex'] });
      const ready$ = p.frame$.pipe(map((f) => f.state.ready), distinctUntilChanged());
      expectObservable(ready$, '^ 5s !').toBe('f 2000ms t', { f: false, t: true });
    });
  });

  it('re-lists sessions when the visibility window changes', () => {
    marbles(121_000, ({ hot, expectObservable, start }) => {
      const turns$ = hot('(rp) 4996ms q', { r: ev.ready(), p: ev.prompt(0, 's1'), q: ev.prompt(5_000, 's2') });
      const options = (windowMinutes: number): VisibilityOptions => ({ windowMinutes, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS) });
      const options$ = hot('w 9999ms n 89999ms w', { w: options(30), n: options(1) });
      const p = start(claudeOnly(turns$));
      // The window is the pipeline's (the Settings panel sets it): its edges are deadlines the pipeline wakes at.
      options$.subscribe((next) => p.setVisibility(next));
      const listing = createListing({ visibility: () => p.visibility });
      const ids$ = p.frame$.pipe(
        filter((f) => f.state.ready),
        map((frame) => {
          listing.push(frame);
          listing.refresh();
          return listing.sessions().map((s) => s.state.sessionId).join(',');
        }),
        distinctUntilChanged(),
      );
      expectObservable(ids$, '^ 120s !').toBe('a 4999ms b 54999ms c 4999ms d 34999ms e', { a: 's1', b: 's2,s1', c: 's2', d: '', e: 's2,s1' });
    });
  });
});
