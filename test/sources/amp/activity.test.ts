import { describe, expect, it } from 'vitest';
import { parseAmpThread } from '../../../src/sources/amp/parse.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { foldEvents } from '../../helpers/source-harness.js';

/** Records in (an Amp thread), activity out: the amp inputs of the state machine (docs/formats/amp.md). */
const T0 = 1_773_134_400_000;
const user = (text: string, at: number) => ({ role: 'user', content: [{ type: 'text', text }], meta: { sentAt: at } });
const call = (name: string, at: number, input: Record<string, unknown> = {}) => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id: `id-${at}`, name, input, startTime: at }],
  state: { type: 'complete', stopReason: 'tool_use' },
  meta: { sentAt: at },
});
const result = (at: number, status = 'done') => ({ role: 'user', content: [{ type: 'tool_result', toolUseID: `id-${at}`, run: { status } }], meta: { sentAt: at + 1 } });
const answer = (text: string, at: number, type = 'complete') => ({ role: 'assistant', content: [{ type: 'text', text }], state: { type, stopReason: 'end_turn' }, meta: { sentAt: at } });

const activityAt = (messages: readonly unknown[], now: number) => {
  const parsed = parseAmpThread(JSON.stringify({ id: 'T-a', created: T0, messages }), '/t.json');
  if (parsed.kind !== 'thread') throw new Error(parsed.kind);
  return deriveActivity(foldEvents(parsed.events)!, now);
};

describe('amp activity inputs', () => {
  it('a prompt reads thinking', () => {
    expect(activityAt([user('go', T0)], T0 + 5_000)).toBe('thinking');
  });

  it.each([
    ['read_file', 'reading'],
    ['edit_file', 'writing'],
    ['create_file', 'writing'],
    ['bash', 'running'],
    ['grep', 'searching'],
    ['glob', 'searching'],
    ['web_search', 'browsing'],
    // Amp 0.0.178x tool names: read_web_page fetches a page, finder searches the codebase.
    ['read_web_page', 'browsing'],
    ['finder', 'searching'],
    ['shell_command', 'running'],
    ['Task', 'spawning'],
  ])('a pending %s call reads %s', (name, activity) => {
    expect(activityAt([user('go', T0), call(name, T0 + 1_000)], T0 + 6_000)).toBe(activity);
  });

  it('a tool result then an answer reads waiting once the grace has passed, then idle', () => {
    const thread = [user('go', T0), call('bash', T0 + 1_000), result(T0 + 2_000), answer('done', T0 + 3_000)];
    expect(activityAt(thread, T0 + 20_000)).toBe('waiting');
    expect(activityAt(thread, T0 + 3_000 + 121_000)).toBe('idle');
  });

  it('a tool run still in progress keeps its call pending; the final status answers it', () => {
    const running = [user('go', T0), call('bash', T0 + 1_000), result(T0 + 1_000, 'in-progress')];
    expect(activityAt(running, T0 + 6_000)).toBe('running');
    const parsed = parseAmpThread(JSON.stringify({ id: 'T-a', messages: running }), '/t.json');
    expect(parsed.kind === 'thread' && foldEvents(parsed.events)?.pendingTools.map((t) => t.name)).toEqual(['bash']);
    const done = parseAmpThread(JSON.stringify({ id: 'T-a', messages: [user('go', T0), call('bash', T0 + 1_000), result(T0 + 1_000, 'done')] }), '/t.json');
    expect(done.kind === 'thread' && foldEvents(done.events)?.pendingTools).toEqual([]);
  });

  it('a reply still streaming keeps the session thinking', () => {
    expect(activityAt([user('go', T0), answer('partial', T0 + 2_000, 'running')], T0 + 20_000)).toBe('thinking');
  });
});
