import { describe, expect, it } from 'vitest';
import { selectModes } from '../src/commands/monitor.js';

describe('selectModes', () => {
  it('defaults to the TUI and keeps the order tui, api, gui', () => {
    expect(selectModes({ tui: false, api: false, gui: false })).toEqual(['tui']);
    expect(selectModes({ tui: false, api: true, gui: false })).toEqual(['api']);
    expect(selectModes({ tui: true, api: true, gui: false })).toEqual(['tui', 'api']);
    expect(selectModes({ tui: false, api: true, gui: true })).toEqual(['api', 'gui']);
  });
});
