import { describe, expect, it } from 'vitest';
import { SESSIONS_FLAGS } from '../../src/commands/command-flags.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { WINDOW_BOUNDS } from '../../src/config/bounds.js';

describe('--window', () => {
  it('takes the range of window_minutes, and the usage text says the same range', () => {
    expect(SESSIONS_FLAGS.window).toMatchObject({ min: WINDOW_BOUNDS.min, max: WINDOW_BOUNDS.max });
    expect(COMMANDS.sessions?.usage).toContain(`(${WINDOW_BOUNDS.min} to ${WINDOW_BOUNDS.max})`);
  });
});
