import { describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../../src/core/agents.js';
import { buildFrame, type FrameContext } from '../../../src/sinks/tui/frame.js';
import type { ViewState } from '../../../src/sinks/tui/state.js';
import type { SessionsState } from '../../../src/core/contracts.js';
import { tuiRead } from '../../helpers/listing-feed.js';
import { toPlain } from '../../../src/sinks/tui/line.js';
import { render } from '../../../src/sinks/tui/render.js';
import { initialView } from '../../../src/sinks/tui/state.js';
import { nameCell } from '../../helpers/tmux.js';
import { fold, NOW, sessionsState } from './scene.js';

const frameOf = (state: SessionsState, view: ViewState, ctx: FrameContext, now: number) => buildFrame(tuiRead(state, view, ctx, now), view, ctx, now);

/**
 * One name per session in the list and the detail panel (the dashboard's card follows the same
 * rule): your rename, else the agent's title, else your latest prompt, else the project folder.
 * An untitled codex session in a folder called `src` listed its prompt but was called `src` in
 * the detail panel.
 */
const ctx = (names: Record<string, string> = {}): FrameContext => ({ names, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS), searched: [] });

const untitled = (prompt?: string) =>
  fold([
    { type: 'meta', agent: 'codex', sessionId: 'u1', patch: { cwd: '/home/dev/work/src', model: 'gpt-5-codex' } },
    ...(prompt ? [{ type: 'turn' as const, agent: 'codex' as const, sessionId: 'u1', at: NOW - 20_000, role: 'user' as const, text: prompt }] : []),
    { type: 'tool_call', agent: 'codex', sessionId: 'u1', at: NOW - 2_000, name: 'exec_command', callId: 'c1' },
  ]);

const screen = (prompt: string | undefined, width: number, names: Record<string, string> = {}): { list: string; detail: string; text: string } => {
  const text = render(frameOf(sessionsState([untitled(prompt)]), initialView(30, ''), ctx(names), NOW), { width, height: 30 })
    .map(toPlain)
    .join('\n');
  const row = text.split('\n').find((line) => line.startsWith('│›')) ?? '';
  const detail = /│ Name +(.*?) *│/.exec(text)?.[1] ?? '';
  return { list: nameCell(text, row), detail, text };
};

describe('a session has one name in the list and the detail panel', () => {
  it.each([100, 60, 140])('untitled, with a prompt: the prompt in both, at %i columns', (width) => {
    const { list, detail } = screen('Fix the flaky login test', width);
    expect(detail).toBe('Fix the flaky login test');
    expect('Fix the flaky login test'.startsWith(list.replace(/…$/, ''))).toBe(true);
    expect(list).not.toBe('src');
  });

  it('untitled, without a prompt: the project folder in both', () => {
    const { list, detail } = screen(undefined, 100);
    expect(list).toBe('src');
    expect(detail).toBe('src');
  });

  it('renamed: the custom name in both', () => {
    const { list, detail } = screen('Fix the flaky login test', 100, { u1: 'Login flake' });
    expect(list).toBe('Login flake');
    expect(detail).toBe('Login flake');
  });
});
