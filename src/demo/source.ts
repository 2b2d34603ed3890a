import { merge, Observable, of, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentKind } from '../core/agents.js';
import type { SessionEvent } from '../core/session.js';
import { demoLoop, type DemoSession } from './scripts.js';

/** How far back the demo's history reaches at start: the 8-minute sparkline is full from the first frame. */
const HISTORY_MS = 9 * 60_000;

/**
 * One demo session as a live stream: on subscribe it emits its meta and the loops that lie in the
 * past (stamped with past times, as a real transcript would be), then each later step
 * when the scheduler reaches it, looping forever. Timed only by `scheduler` and stamped by `now`
 * (the Ctx clock), so TestScheduler runs hours of demo in virtual time.
 */
const demoSession$ = (spec: DemoSession, scheduler: SchedulerLike, now: () => number = () => scheduler.now()): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    const { steps, length } = demoLoop(spec);
    const start = now();
    let index = 0;
    // Whole loops of history before the current one, so sparklines and costs start with minutes behind them.
    const history = Math.max(0, Math.floor((HISTORY_MS - spec.offsetMs) / length));
    // Loops are numbered from the one running at start (0); the history's are negative.
    let loop = -history;
    let loopStart = start - spec.offsetMs - history * length;
    let timer: Subscription | undefined;
    const dueOfNext = (): number => loopStart + (steps[index]?.offset ?? length);
    const advance = (): void => {
      index += 1;
      if (index >= steps.length) {
        index = 0;
        loop += 1;
        loopStart += length;
      }
    };
    const emitUntil = (time: number): void => {
      while (dueOfNext() <= time) {
        const step = steps[index];
        if (step) for (const event of step.make(dueOfNext(), loop)) subscriber.next(event);
        advance();
      }
    };
    const scheduleNext = (): void => {
      timer = scheduler.schedule(() => {
        emitUntil(now());
        scheduleNext();
      }, Math.max(0, dueOfNext() - now()));
    };
    subscriber.next({
      agent: spec.agent,
      sessionId: spec.sessionId,
      type: 'meta',
      patch: { ...spec.meta, createdAt: loopStart, path: `demo:${spec.agent}/${spec.sessionId}` },
    });
    emitUntil(start);
    scheduleNext();
    return () => timer?.unsubscribe();
  });

/**
 * The `--demo` source: realistic live sessions (the agents' own, from `cast`) for every agent in
 * `agents`, then `ready` for each of them once its sessions' history is out, so one-shot commands
 * print at once.
 */
export const demoSource = (scheduler: SchedulerLike, cast: readonly DemoSession[], agents: readonly AgentKind[], now: () => number = () => scheduler.now()): Observable<SessionEvent> => {
  const wanted = new Set(agents);
  const sessions = cast.filter((spec) => wanted.has(spec.agent)).map((spec) => demoSession$(spec, scheduler, now));
  const ready = of(...agents.map((agent): SessionEvent => ({ type: 'ready', agent })));
  return merge(...sessions, ready);
};
