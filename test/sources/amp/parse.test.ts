import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { fileUriToPath } from '../../../src/sources/amp/file-uri.js';
import { parseAmpThread } from '../../../src/sources/amp/parse.js';

const THREADS = fileURLToPath(new URL('../../../fixtures/amp/.local/share/amp/threads/', import.meta.url));
const fixture = (name: string): string => readFileSync(THREADS + name, 'utf8');

/** The event stream without the session ref: what a reader of the assertions cares about. */
const shape = (events: readonly SessionEvent[]) =>
  events.map((e) => {
    switch (e.type) {
      case 'turn':
        return `${e.role}@${e.at}${e.counts === false ? ' (uncounted)' : ''}`;
      case 'tool_call':
        return `call ${e.name}#${e.callId ?? ''}@${e.at}${e.filePath ? ` -> ${e.filePath}` : ''}`;
      case 'tool_result':
        return `result #${e.callId ?? ''}@${e.at}${e.isError ? ' error' : ''}`;
      case 'usage':
        return `usage ${e.messageId ?? ''} ${e.tokens.input}/${e.tokens.output}/${e.tokens.cacheCreation}/${e.tokens.cacheRead}`;
      default:
        return e.type;
    }
  });

describe('parseAmpThread', () => {
  it('replays a whole thread: reset, meta, then turns, calls, results and usage in message order', () => {
    const result = parseAmpThread(fixture('T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b.json'), '/x/T.json');
    expect(result.kind).toBe('thread');
    if (result.kind !== 'thread') return;
    expect(result.sessionId).toBe('T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b');
    expect(result.events.every((e) => e.type === 'ready' || e.type === 'diagnostic' || (e.type !== 'progress' && e.sessionId === result.sessionId))).toBe(true);
    expect(shape(result.events)).toEqual([
      'reset',
      'meta',
      'user@1773134401200',
      'assistant@1773134403400',
      'call Read#toolu_01@1773134403400',
      'usage 1 12/96/3800/0',
      'result #toolu_01@1773134403500',
      'assistant@1773134405000',
      'call edit_file#toolu_02@1773134405000 -> /home/dev/my chat/ws_test.go',
      'usage 3 9/120/400/3800',
      'result #toolu_02@1773134405400',
      'assistant@1773134409100',
      'usage 5 8/40/900/4200',
    ]);
  });

  it('reads the title, percent-decoded cwd, branch, client version and the last model into meta', () => {
    const result = parseAmpThread(fixture('T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b.json'), '/x/T.json');
    if (result.kind !== 'thread') throw new Error(result.kind);
    const meta = result.events.find((e) => e.type === 'meta');
    expect(meta?.type === 'meta' && meta.patch).toEqual({
      source: 'cli',
      path: '/x/T.json',
      resumeCommand: 'amp threads continue T-0195e3a2-9b1c-7d44-a1f0-2c3d4e5f6a7b',
      cwd: '/home/dev/my chat',
      gitBranch: 'fix/ws-flake',
      version: '0.0.1773000000-g1a2b3c',
      agentName: 'Fix flaky websocket test',
      model: 'claude-opus-4-6',
      createdAt: 1773134400000,
    });
  });

  it('skips info summaries and role-less messages, marks refused tools as errors and holds back a reply still streaming', () => {
    const result = parseAmpThread(fixture('T-01960000-aaaa-7bbb-8ccc-0000000000f1.json'), '/x/T2.json');
    if (result.kind !== 'thread') throw new Error(result.kind);
    expect(result.badMessages).toBe(1);
    expect(shape(result.events)).toEqual([
      'reset',
      'meta',
      'user@1773138001000',
      'assistant@1773138003000',
      'call bash#toolu_11@1773138003000',
      'usage 3 20/30/0/100',
      'result #toolu_11@1773138004000 error',
      'user@1773138010000',
      // messageId 6 is still "running": no answer yet, so the session keeps thinking.
    ]);
    const user = result.events.filter((e) => e.type === 'turn' && e.role === 'user');
    expect(user.map((e) => e.type === 'turn' && e.text)).toEqual([
      'Move the billing cron to the scheduler service',
      'Do not delete build/, it holds the release notes',
    ]);
  });

  it('orders an answer after its calls when the message ended its turn', () => {
    const doc = JSON.stringify({
      id: 'T-x',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }], meta: { sentAt: 10 } },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'a', name: 'Task', startTime: 20 }, { type: 'text', text: 'cancelled' }],
          state: { type: 'cancelled', stopReason: 'end_turn' },
        },
      ],
    });
    const result = parseAmpThread(doc, '/x');
    if (result.kind !== 'thread') throw new Error(result.kind);
    expect(shape(result.events).slice(2)).toEqual(['user@10', 'call Task#a@20', 'assistant@20']);
  });

  it('reports a thread with no messages as empty and a torn document as invalid', () => {
    expect(parseAmpThread(fixture('T-01960000-bbbb-7ccc-8ddd-0000000000e0.json'), '/x')).toEqual({
      kind: 'empty',
      sessionId: 'T-01960000-bbbb-7ccc-8ddd-0000000000e0',
    });
    const torn = parseAmpThread(fixture('T-01960000-cccc-7ddd-8eee-0000000000aa.json'), '/x');
    expect(torn.kind).toBe('invalid');
    expect(torn.kind === 'invalid' && torn.message).toMatch(/^not a JSON document/);
    const foreign = parseAmpThread('{"messages":[]}', '/x');
    expect(foreign.kind === 'invalid' && foreign.message).toMatch(/^not an Amp thread/);
  });
});

describe('fileUriToPath', () => {
  it('percent-decodes file URIs and leaves other strings alone', () => {
    expect(fileUriToPath('file:///home/dev/my%20chat/%C3%A9t%C3%A9')).toBe('/home/dev/my chat/été');
    expect(fileUriToPath('/already/a/path')).toBe('/already/a/path');
    expect(fileUriToPath('file:///bad%zzescape')).toBe('/bad%zzescape');
  });
});
