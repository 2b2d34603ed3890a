import { describe, expect, it } from 'vitest';
import { toolCallEvent, toolResultEvent, turnEvent } from '../../../src/sources/internal/event-literals.js';

// The literal builders replace `{ ...ref, ...(x ? { a } : {}) }` on the parsers' hot paths: they
// must give exactly the objects the spread forms gave (same keys, no undefined-valued keys).
const ref = { agent: 'kimi', sessionId: 's1' } as const;
const keysOf = (value: object): string[] => Object.keys(value).sort();

describe('event literals', () => {
  const texts = [undefined, '', 'hello'] as const;
  const ids = [undefined, null, '', 'c1'] as const;
  const paths = [undefined, '', '/w/a.ts'] as const;

  it('turnEvent equals the spread form for every text and counts combination', () => {
    for (const role of ['user', 'assistant'] as const) {
      for (const text of texts) {
        for (const counts of [true, false]) {
          const spread = { ...ref, type: 'turn', at: 5, role, ...(text !== undefined ? { text } : {}), ...(counts ? {} : { counts: false }) };
          const built = turnEvent(ref, 5, role, text, counts);
          expect(built).toStrictEqual(spread);
          expect(keysOf(built)).toEqual(keysOf(spread));
        }
      }
    }
  });

  it('toolCallEvent leaves out empty call ids and paths', () => {
    for (const callId of ids) {
      for (const filePath of paths) {
        const spread = { ...ref, type: 'tool_call', at: 7, name: 'Write', ...(callId ? { callId } : {}), ...(filePath ? { filePath } : {}) };
        const built = toolCallEvent(ref, 7, 'Write', callId, filePath);
        expect(built).toStrictEqual(spread);
        expect(keysOf(built)).toEqual(keysOf(spread));
      }
    }
  });

  it('toolResultEvent leaves out empty call ids and a false isError', () => {
    for (const callId of ids) {
      for (const isError of [false, true]) {
        const spread = { ...ref, type: 'tool_result', at: 9, ...(callId ? { callId } : {}), ...(isError ? { isError: true } : {}) };
        const built = toolResultEvent(ref, 9, callId, isError);
        expect(built).toStrictEqual(spread);
        expect(keysOf(built)).toEqual(keysOf(spread));
      }
    }
  });
});
