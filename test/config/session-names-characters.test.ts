import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSessionNames, setSessionName } from '../../src/config/session-names.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

describe('setSessionName', () => {
  let temp: TempHome;
  beforeEach(async () => {
    temp = await makeTempHome('agentwatch-names-chars-');
  });
  afterEach(() => temp.cleanup());

  it('refuses control, bidi and zero-width characters and saves nothing', async () => {
    for (const name of ['a\u001b]0;x\u0007', 'evil\u202etxt', 'ad\u200bmin', 'x\u2069']) {
      await expect(setSessionName(temp.env, 's1', name)).rejects.toThrow('name must not contain control, bidi or zero-width characters');
    }
    expect((await loadSessionNames(temp.env)).names).toEqual({});
    expect((await setSessionName(temp.env, 's1', 'fine 👩\u200d💻')).names).toEqual({ s1: 'fine 👩\u200d💻' });
  });
});
