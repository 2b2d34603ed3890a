import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { parseGrokLine, stampGrokBatch } from '../../../src/sources/grok/parse.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { foldEvents } from '../../helpers/source-harness.js';

/** Records in (chat_history.jsonl lines), activity out: the grok inputs of the state machine (docs/formats/grok.md). */
const T = 1_773_135_672_000;
const prompt = (text: string) => JSON.stringify({ type: 'user', content: [{ type: 'text', text: `<user_query>${text}</user_query>` }] });
const injected = JSON.stringify({ type: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }] });
const calls = (...names: string[]) => JSON.stringify({ type: 'assistant', content: '', tool_calls: names.map((name, i) => ({ id: `c${i}`, name, arguments: '{}' })) });
const result = (id: string) => JSON.stringify({ type: 'tool_result', content: 'ok', tool_call_id: id });
const answer = (text: string) => JSON.stringify({ type: 'assistant', content: text });

const activityAt = (lines: readonly string[], now: number) => {
  const events: SessionEvent[] = lines.flatMap((line) => {
    const r = parseGrokLine(line, 'g');
    return r.ok ? [...r.events] : [];
  });
  return deriveActivity(foldEvents(stampGrokBatch(events, T))!, now);
};

describe('grok activity inputs', () => {
  it('a real prompt reads thinking; injected context alone reads nothing', () => {
    expect(activityAt([prompt('go')], T + 5_000)).toBe('thinking');
    const parsed = parseGrokLine(injected, 'g');
    expect(parsed).toEqual({ ok: true, events: [] });
  });

  it.each([
    ['bash', 'running'],
    ['read_file', 'reading'],
    ['edit_file', 'writing'],
    ['grep', 'searching'],
    ['web_search', 'browsing'],
  ])('a pending %s call reads %s', (name, activity) => {
    expect(activityAt([prompt('go'), calls(name)], T + 5_000)).toBe(activity);
  });

  it('the last of several calls decides; a result reads thinking; an answer waiting', () => {
    expect(activityAt([prompt('go'), calls('grep', 'bash')], T + 5_000)).toBe('running');
    expect(activityAt([prompt('go'), calls('bash'), result('c0')], T + 40_000)).toBe('idle');
    expect(activityAt([prompt('go'), calls('bash'), result('c0'), answer('done')], T + 15_000)).toBe('waiting');
  });
});
