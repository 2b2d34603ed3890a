import { describe, expect, it } from 'vitest';
import { markLatest } from '../../web/src/lib/perf-mark.js';

describe('the dashboard performance marks', () => {
  it('keep one mark per name however often it is set', () => {
    for (let i = 0; i < 3; i += 1) markLatest('agentwatch:test-mark');
    expect(performance.getEntriesByName('agentwatch:test-mark')).toHaveLength(1);
    expect(performance.getEntriesByName('agentwatch:test-mark')[0]?.entryType).toBe('mark');
  });
});
