import { describe, expect, it } from 'vitest';
import { buildPayload, buildRequest } from '../../../src/sinks/webhook/payload.js';
import { signBody } from '../../../src/sinks/webhook/sign.js';
import { entry, transition } from './transitions.js';

describe('buildPayload', () => {
  it('has exactly the documented wire fields, timestamp in RFC 3339 UTC', () => {
    const payload = buildPayload(transition({ at: Date.UTC(2026, 0, 2, 3, 4, 5, 6) }), { id: 'abc' });
    expect(payload).toEqual({
      id: 'abc',
      event: 'state_transition',
      session_id: 's1',
      agent: 'claude',
      from: 'thinking',
      to: 'waiting',
      project_path: '/home/dev/projects/shop',
      timestamp: '2026-01-02T03:04:05.006Z',
    });
    expect('api' in payload).toBe(false);
  });

  it('links the session in the local API when a base URL is given (trailing slash and odd ids handled)', () => {
    const payload = buildPayload(transition({ sessionId: 'a b/c' }), { id: 'x', apiBaseUrl: 'http://127.0.0.1:7421/' });
    expect(payload.api).toEqual({ session_url: 'http://127.0.0.1:7421/api/sessions/a%20b%2Fc' });
  });
});

describe('buildRequest', () => {
  const payload = buildPayload(transition(), { id: 'delivery-1' });

  it('sends the documented headers and signs the exact body bytes', () => {
    const request = buildRequest(entry({ url: 'http://example.test/h', secret: 'shh' }), payload, '1.2.3');
    expect(request.url).toBe('http://example.test/h');
    expect(request.id).toBe('delivery-1');
    expect(JSON.parse(request.body)).toEqual(payload);
    expect(request.headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'agentwatch/1.2.3',
      'X-Agentwatch-Event': 'state_transition',
      'X-Agentwatch-Delivery': 'delivery-1',
      'X-Agentwatch-Signature': signBody(request.body, 'shh'),
    });
  });

  it('sends no signature header without a secret, or with an empty one', () => {
    expect(buildRequest(entry(), payload, '1.0.0').headers).not.toHaveProperty('X-Agentwatch-Signature');
    expect(buildRequest(entry({ secret: '' }), payload, '1.0.0').headers).not.toHaveProperty('X-Agentwatch-Signature');
  });
});
