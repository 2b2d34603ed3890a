import { describe, expect, it } from 'vitest';
import { formatNotification, formatWait, projectName } from '../../../src/sinks/notify/message.js';

describe('notification text', () => {
  it.each([
    [0, '0 s'],
    [30_000, '30 s'],
    [59_499, '59 s'],
    [60_000, '1 min'],
    [90_000, '1 min 30 s'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
  ])('formatWait(%i) = %s', (ms, text) => {
    expect(formatWait(ms)).toBe(text);
  });

  it('names the project by the last directory of the cwd, or the session id without one', () => {
    expect(projectName('/home/dev/shop/', 's1')).toBe('shop');
    expect(projectName('', 's1')).toBe('s1');
  });

  it('says project, agent and how long', () => {
    expect(formatNotification({ agent: 'opencode', sessionId: 's', cwd: '/w/api-server', waitedMs: 45_000 })).toEqual({
      title: 'api-server is waiting for you',
      body: 'OpenCode has been waiting for input for 45 s.',
    });
  });
});
