import { describe, expect, it } from 'vitest';
import { signBody } from '../../../src/sinks/webhook/sign.js';

describe('signBody', () => {
  it('matches RFC 4231 test case 2 (HMAC-SHA256, key "Jefe")', () => {
    expect(signBody('what do ya want for nothing?', 'Jefe')).toBe(
      'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('matches the example GitHub documents for X-Hub-Signature-256', () => {
    expect(signBody('Hello, World!', "It's a Secret to Everybody")).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('signs bytes: a string and its UTF-8 encoding give the same signature, a changed byte another', () => {
    const body = '{"project_path":"/home/dév/ünïcode"}';
    expect(signBody(Buffer.from(body, 'utf8'), 'k')).toBe(signBody(body, 'k'));
    expect(signBody(`${body} `, 'k')).not.toBe(signBody(body, 'k'));
    expect(signBody(body, 'k')).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});
