import { defer, EMPTY, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { attentionLog } from '../../src/app/attention-log.js';
import { startPipeline } from '../../src/app/pipeline.js';
import type { SessionEvent } from '../../src/core/session.js';
import { startSink, type RunningSink, type Sink } from '../../src/streams/sink.js';
import { memoryLogger, rx, testCtx } from '../helpers/marbles.js';

const locked: SessionEvent = { type: 'diagnostic', agent: 'cursor', code: 'E_DB_LOCKED', message: 'database is locked', path: '/db' };
const junk: SessionEvent = { type: 'diagnostic', agent: 'claude', code: 'E_JUNK_LINE', message: 'junk line', path: '/a.jsonl', line: 3 };

describe('Pipeline.start(sinks)', () => {
  it('starts the sinks before the deferred sources, and dispose awaits their teardown', async () => {
    const scheduler = rx();
    let subscribed = false;
    const seen: { readonly sourcesRunning: boolean; readonly codes: string[] }[] = [];
    let tornDown = false;
    const sink: Sink = ({ diagnostics$ }) => {
      const record = { sourcesRunning: subscribed, codes: [] as string[] };
      seen.push(record);
      const subscription = diagnostics$.subscribe((d) => record.codes.push(d.code));
      return async () => {
        subscription.unsubscribe();
        tornDown = true;
      };
    };
    const claude = () =>
      defer(() => {
        subscribed = true;
        return of(junk);
      });
    const pipeline = startPipeline(testCtx(scheduler), { sources: { claude }, agents: ['claude'], deferSources: true });
    expect(seen).toEqual([]);
    pipeline.start([sink]);
    expect(subscribed).toBe(true);
    expect(seen).toEqual([{ sourcesRunning: false, codes: ['E_JUNK_LINE'] }]);
    pipeline.start([sink]);
    expect(seen).toHaveLength(1);
    await pipeline.dispose();
    expect(tornDown).toBe(true);
  });
});

describe('interfaces through the Sink contract', () => {
  it('startSink waits for an asynchronous start and gives back how it ends', async () => {
    const scheduler = rx();
    const pipeline = startPipeline(testCtx(scheduler), { sources: { claude: () => EMPTY }, agents: ['claude'], deferSources: true });
    let quit = (_code: number): void => undefined;
    let stopped = false;
    const tui: Sink<Promise<RunningSink>> = async ({ agents, visibility }) => {
      // What an interface reads at start: the running agents and the listing options in force.
      expect(agents).toEqual(['claude']);
      expect(visibility).toBe(pipeline.visibility);
      return {
        done: new Promise<number>((resolve) => (quit = resolve)),
        stop: () => {
          stopped = true;
        },
      };
    };
    const running = await startSink(tui, pipeline.streams, testCtx(scheduler));
    quit(0);
    await expect(running.done).resolves.toBe(0);
    await running.stop();
    expect(stopped).toBe(true);
    const plain = await startSink(() => () => undefined, pipeline.streams, testCtx(scheduler));
    expect(plain.done).toBeUndefined();
    await pipeline.dispose();
  });

  it('a failed asynchronous start is an error of startSink, and a warning of the pipeline', async () => {
    const scheduler = rx();
    const log = memoryLogger();
    const broken: Sink = () => Promise.reject(new Error('port 8080 taken'));
    const pipeline = startPipeline({ ...testCtx(scheduler), log }, { sources: {}, agents: ['claude'], deferSources: true });
    await expect(startSink(broken, pipeline.streams, testCtx(scheduler))).rejects.toThrow('port 8080 taken');
    pipeline.start([broken]);
    await pipeline.dispose();
    expect(log.lines).toEqual(['warn sink failed to start: port 8080 taken']);
  });

  it('a sink started asynchronously with the pipeline is stopped by dispose', async () => {
    const scheduler = rx();
    let stopped = false;
    const later: Sink = () => Promise.resolve({ stop: () => void (stopped = true) });
    const pipeline = startPipeline(testCtx(scheduler), { sources: {}, agents: ['claude'], deferSources: true });
    pipeline.start([later]);
    await pipeline.dispose();
    expect(stopped).toBe(true);
  });
});

describe('attentionLog', () => {
  it('warns once per distinct problem the user should fix, and not about junk lines', async () => {
    const scheduler = rx();
    const log = memoryLogger();
    const cursor = () => of(locked, junk, locked);
    const pipeline = startPipeline({ ...testCtx(scheduler), log }, { sources: { cursor }, agents: ['cursor'], deferSources: true });
    pipeline.start([attentionLog()]);
    await pipeline.dispose();
    expect(log.lines).toEqual(['warn cursor: database is locked (/db) (agentwatch doctor for details)']);
  });
});
