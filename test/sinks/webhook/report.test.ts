import { TimeoutError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HttpStatusError } from '../../../src/sinks/webhook/deliver.js';
import { bodySnippet, describeFailure, describeInvalidWebhook } from '../../../src/sinks/webhook/report.js';

describe('webhook log lines', () => {
  it('cuts a receiver body to one short line', () => {
    expect(bodySnippet('  <html>\n  <body>oops</body>\n</html> ')).toBe('<html> <body>oops</body> </html>');
    expect(bodySnippet('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
  });

  it('describes each kind of failure', () => {
    expect(describeFailure(new HttpStatusError({ status: 403, statusText: 'Forbidden', body: 'bad token' }), 10_000)).toBe('HTTP 403 Forbidden: bad token');
    expect(describeFailure(new HttpStatusError({ status: 502, statusText: '', body: '' }), 10_000)).toBe('HTTP 502');
    expect(describeFailure(new TimeoutError(), 2_500)).toBe('no response within 2.5 s');
    expect(describeFailure(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 1)).toBe('socket hang up (ECONNRESET)');
    expect(describeFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), 1)).toBe('connect ECONNREFUSED 127.0.0.1:9');
  });

  it('names an invalid entry and everything wrong with it', () => {
    expect(describeInvalidWebhook({ index: 2, name: 'ci', problems: ['url: url must be an http:// or https:// URL', 'agents.0: agents must list agent kinds'] })).toBe(
      'webhook "ci" (entry 3) is ignored: url: url must be an http:// or https:// URL; agents.0: agents must list agent kinds',
    );
  });
});
