import type { Activity } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { Transition } from '../../core/session.js';
import { signBody } from './sign.js';
import { standardHeaders } from './standard-webhooks.js';

/** The JSON body of one delivery (docs/webhooks.md); field names are the wire format. */
export interface WebhookPayload {
  readonly id: string;
  readonly event: 'state_transition';
  readonly session_id: string;
  readonly agent: AgentKind;
  readonly from: Activity;
  readonly to: Activity;
  readonly project_path: string;
  /** RFC 3339 UTC. */
  readonly timestamp: string;
  /** Links into the local API, present only when the API server runs. */
  readonly api?: { readonly session_url: string };
  /** Present (true) only on a change that happened while no agentwatch was running, announced at the next start. */
  readonly replayed?: true;
}

/** One request, built once per transition and entry: every retry sends the same bytes and id. */
export interface WebhookRequest {
  readonly id: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface PayloadOptions {
  readonly id: string;
  /** Base URL of the running API server (e.g. `http://127.0.0.1:7421`), when there is one. */
  readonly apiBaseUrl?: string;
}

export const buildPayload = (transition: Transition & { readonly replayed?: true }, options: PayloadOptions): WebhookPayload => ({
  id: options.id,
  event: 'state_transition',
  session_id: transition.sessionId,
  agent: transition.agent,
  from: transition.from,
  to: transition.to,
  project_path: transition.cwd,
  timestamp: new Date(transition.at).toISOString(),
  ...(options.apiBaseUrl
    ? { api: { session_url: `${options.apiBaseUrl.replace(/\/+$/, '')}/api/sessions/${encodeURIComponent(transition.sessionId)}` } }
    : {}),
  ...(transition.replayed ? { replayed: true } : {}),
});

/**
 * The body bytes and headers of one delivery. The signature covers exactly `body`, which is also
 * exactly what is sent (no re-serialisation after signing).
 */
export const buildRequest = (entry: SigningEntry, payload: WebhookPayload, version: string, at: number = Date.now()): WebhookRequest =>
  requestFor(entry, payload.id, JSON.stringify(payload), version, at);

/** What signing needs from a webhook entry. */
export interface SigningEntry {
  readonly url: string;
  readonly secret?: string | undefined;
  readonly signature?: 'agentwatch' | 'standard-webhooks' | undefined;
}

/**
 * The request of one attempt of a stored delivery: its exact body bytes, the X-Agentwatch-*
 * headers, and the entry's signature (Standard Webhooks signatures carry the attempt's time, so
 * they are made per attempt, with the entry's current secret).
 */
export const requestFor = (entry: SigningEntry, id: string, body: string, version: string, at: number): WebhookRequest => {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `agentwatch/${version}`,
    'X-Agentwatch-Event': 'state_transition',
    'X-Agentwatch-Delivery': id,
  };
  if (entry.signature === 'standard-webhooks' && entry.secret) Object.assign(headers, standardHeaders(id, body, entry.secret, at));
  // An empty secret signs nothing: it would give a signature anyone can forge.
  else if (entry.secret) headers['X-Agentwatch-Signature'] = signBody(body, entry.secret);
  return { id, url: entry.url, body, headers };
};
