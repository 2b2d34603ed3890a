import { describe, expect, it } from 'vitest';
import type { SessionScopedEvent } from '../../../src/streams/reduce-session.js';
import { renderDetail } from '../../../src/sinks/tui/render-detail.js';
import { toPlain } from '../../../src/sinks/tui/line.js';
import { toDetail } from '../../../src/streams/views.js';
import { NOW, ago, fold } from './scene.js';

process.env.TZ = 'UTC';

const S = 1000;
const ref = { agent: 'codex', sessionId: 'x9' } as const;

/** A Codex session that ran one tool fourteen times in a row, with big token counts and a long path. */
const session = fold([
  { ...ref, type: 'meta', patch: { cwd: '/home/dev/src/a-rather-long-folder-name/services/billing-and-invoicing', model: 'gpt-5.2-codex', resumeCommand: 'codex resume x9' } },
  { ...ref, type: 'turn', at: ago(60 * S), role: 'user', text: 'Why does the invoice total drift by a cent when the currency is JPY and the order has more than ten lines?' },
  { ...ref, type: 'tool_call', at: ago(59 * S), name: 'apply_patch', callId: 'p0' },
  { ...ref, type: 'tool_result', at: ago(59 * S), callId: 'p0' },
  ...Array.from({ length: 14 }, (_, i): SessionScopedEvent[] => [
    { ...ref, type: 'tool_call', at: ago((50 - i) * S), name: 'exec_command', callId: `e${i}` },
    { ...ref, type: 'tool_result', at: ago((50 - i) * S - 500), callId: `e${i}` },
  ]).flat(),
  { ...ref, type: 'turn', at: ago(20 * S), role: 'assistant', text: 'Rounding happened per line instead of on the total.' },
  { ...ref, type: 'usage', at: ago(20 * S), tokens: { input: 1_234_567, output: 98_765, cacheCreation: 1_500_000, cacheRead: 12_345_678 } },
]);

const panel = (width: number, height = 80): string[] =>
  renderDetail(toDetail(session, { now: NOW }), { width, height }, NOW, 0).lines.map((line) => toPlain(line).trimEnd());

describe('the detail panel', () => {
  it.each([44, 58, 78])('at %i cells: the conversation before the fields and the tools', (width) => {
    const lines = panel(width);
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    expect(at(/^ Name /)).toBe(0);
    expect(at(/^ Conversation/)).toBeGreaterThan(0);
    expect(at(/^ Conversation/)).toBeLessThan(at(/^ Agent /));
    expect(at(/^ +agent Rounding happened/)).toBeLessThan(at(/^ +you +Why does the invoice/));
    expect(at(/^ Agent /)).toBeLessThan(at(/^ Recent tools/));
  });

  it('folds consecutive calls of one tool into one line with a count', () => {
    const tools = panel(58).slice(panel(58).findIndex((line) => line.startsWith(' Recent tools')) + 1).filter((line) => line.trim() !== '');
    expect(tools).toEqual(['   11:59:23 exec_command ×14', '   11:59:01 apply_patch']);
  });

  it.each([44, 58, 78])('at %i cells: every field is shown whole, wrapped, never cut', (width) => {
    const lines = panel(width);
    expect(lines.join('\n')).not.toContain('…');
    const value = (label: string): string => {
      const start = lines.findIndex((line) => line.startsWith(` ${label} `));
      const rest = lines.slice(start + 1);
      const end = rest.findIndex((line) => !/^ {13}\S/.test(line));
      return [lines[start] ?? '', ...rest.slice(0, end)].map((line) => line.slice(13).trim()).join(' ');
    };
    expect(value('Tokens').replace(/\s+/g, '')).toBe('in15M out99k (cache12M read,1.5M written)'.replace(/\s+/g, ''));
    expect(value('Directory').replace(/\s+/g, '')).toBe('/home/dev/src/a-rather-long-folder-name/services/billing-and-invoicing');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
  });
});
