import { randomUUID } from 'node:crypto';
import { asyncScheduler, firstValueFrom, tap } from 'rxjs';
import type { WebhookEntry } from '../../config/schema.js';
import type { Activity } from '../../core/activity.js';
import type { Transition } from '../../core/session.js';
import { deliverRequest } from './deliver.js';
import { buildPayload, buildRequest } from './payload.js';
import type { Post, PostResponse } from './post.js';
import { describeFailure } from './report.js';

/** Session id of sample deliveries, so a receiver can recognise (and ignore) them. */
const SAMPLE_SESSION_ID = 'agentwatch-webhook-test';

/**
 * A transition this entry would really receive: its first listed agent and target state (claude
 * and waiting when it lists none), coming from a different state.
 */
const sampleTransition = (entry: WebhookEntry, cwd: string, at: number): Transition => {
  // "active" stands for any busy state: a sample of it is a write.
  const first = entry.events[0] ?? 'waiting';
  const to: Activity = first === 'active' ? 'writing' : first;
  return {
    agent: entry.agents[0] ?? 'claude',
    sessionId: SAMPLE_SESSION_ID,
    from: to === 'thinking' ? 'waiting' : 'thinking',
    to,
    at,
    cwd,
    isSidechain: false,
  };
};

export interface ProbeResult {
  readonly entry: WebhookEntry;
  readonly ok: boolean;
  /** The receiver's HTTP status, when it answered at all. */
  readonly status?: number;
  /** "200 OK", or why it failed. */
  readonly detail: string;
  readonly ms: number;
}

export interface ProbeDeps {
  readonly post: Post;
  readonly timeoutMs: number;
  readonly version: string;
  readonly cwd: string;
  /** Wall clock, epoch ms: stamps the sample and times the answer. */
  readonly now: () => number;
  readonly makeId?: () => string;
}

/**
 * One signed sample delivery, sent exactly as the sink sends real ones but once, without
 * retries, so the user sees the receiver's answer right away.
 */
export const probeWebhook = async (entry: WebhookEntry, deps: ProbeDeps): Promise<ProbeResult> => {
  const started = deps.now();
  const payload = buildPayload(sampleTransition(entry, deps.cwd, started), { id: (deps.makeId ?? randomUUID)() });
  const request = buildRequest(entry, payload, deps.version);
  let answer: PostResponse | undefined;
  const report = await firstValueFrom(
    deliverRequest(
      entry.name,
      request,
      {
        // Remember the status of any answer, including the ones deliverRequest turns into errors.
        post: (req) => deps.post(req).pipe(tap((response) => (answer = response))),
        scheduler: asyncScheduler,
        delays: [],
        timeoutMs: deps.timeoutMs,
      },
    ),
  );
  const ms = Math.round(deps.now() - started);
  const status = answer ? { status: answer.status } : {};
  if (report.kind === 'delivered') {
    return { entry, ok: true, ...status, detail: `HTTP ${answer?.status ?? report.status}${answer?.statusText ? ` ${answer.statusText}` : ''}`, ms };
  }
  return { entry, ok: false, ...status, detail: describeFailure(report.error, deps.timeoutMs), ms };
};
