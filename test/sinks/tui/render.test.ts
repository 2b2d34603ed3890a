import { describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../../src/core/agents.js';
import { buildFrame, type FrameContext } from '../../../src/sinks/tui/frame.js';
import type { SessionsState } from '../../../src/core/contracts.js';
import { tuiRead } from '../../helpers/listing-feed.js';
import { toPlain } from '../../../src/sinks/tui/line.js';
import { render } from '../../../src/sinks/tui/render.js';
import { initialView, reduceView, type Action, type ViewState } from '../../../src/sinks/tui/state.js';
import { NOW, SCENE, sessionsState } from './scene.js';

const frameOf = (state: SessionsState, view: ViewState, ctx: FrameContext, now: number) => buildFrame(tuiRead(state, view, ctx, now), view, ctx, now);

process.env.TZ = 'UTC';

const ctx: FrameContext = {
  names: { g1: 'infra upgrade' },
  excludeCwdSubstrings: [],
  agents: new Set(AGENT_KINDS),
  searched: ['/home/dev/.claude/projects', '/home/dev/.codex/sessions'],
  worktreeOf: (cwd) => (cwd === '/home/dev/parser' ? { isWorktree: true, mainRepo: '/home/dev/parser-main' } : { isWorktree: false, mainRepo: '' }),
};

/** Apply key actions the way the shell does, with the rows of the current frame. */
const drive = (actions: readonly Action[], start: ViewState = initialView(30, '')): ViewState =>
  actions.reduce((view, action) => {
    const frame = frameOf(SCENE, view, ctx, NOW);
    return reduceView(view, action, { rows: frame.rows, now: NOW, detailMaxScroll: 50, limitsMaxScroll: 50 }).view;
  }, start);

const screen = (view: ViewState, width: number, height: number, state = SCENE): string =>
  `${render(frameOf(state, view, ctx, NOW), { width, height })
    .map((line) => toPlain(line).replace(/\s+$/, ''))
    .join('\n')}\n`;

describe('render (plain theme, fixed size and clock)', () => {
  it.each([
    [80, 24],
    [100, 30],
    [140, 40],
  ])('the list and detail at %ix%i', async (width, height) => {
    const text = screen(initialView(30, ''), width, height);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(height);
    await expect(text).toMatchFileSnapshot(`__snapshots__/screen-${width}x${height}.txt`);
  });

  it('every line is exactly the terminal width', () => {
    for (const [width, height] of [[80, 24], [100, 30], [140, 40], [40, 10]] as const) {
      const lines = render(frameOf(SCENE, initialView(30, ''), ctx, NOW), { width, height });
      expect(lines).toHaveLength(height);
      for (const line of lines) expect(toPlain(line)).toHaveLength(width);
    }
  });

  it('moves the selection and shows that session in the detail panel', async () => {
    await expect(screen(drive([{ type: 'move', delta: 1 }, { type: 'move', delta: 1 }]), 100, 30)).toMatchFileSnapshot('__snapshots__/moved.txt');
  });

  it('filters to waiting sessions and says so in the title', async () => {
    const view = drive([{ type: 'cycleFilter' }, { type: 'cycleFilter' }, { type: 'cycleFilter' }]);
    expect(view.filter).toBe('waiting');
    await expect(screen(view, 100, 30)).toMatchFileSnapshot('__snapshots__/filter-waiting.txt');
  });

  it('shows the search prompt while typing and narrows the list live', async () => {
    const view = drive([{ type: 'startSearch' }, { type: 'promptInput', text: 'p' }, { type: 'promptInput', text: 'a' }, { type: 'promptInput', text: 'r' }]);
    await expect(screen(view, 80, 24)).toMatchFileSnapshot('__snapshots__/search-typing.txt');
  });

  it('widens the window to include an older session', async () => {
    await expect(screen(drive([{ type: 'widen', minutes: 10 }, { type: 'widen', minutes: 10 }, { type: 'widen', minutes: 10 }]), 80, 24)).toMatchFileSnapshot(
      '__snapshots__/window-60.txt',
    );
  });

  it('says how much of the history is read while the first discovery reads it, with the sessions read so far', () => {
    const reading: SessionsState = { ...SCENE, ready: false, history: { read: 3200, total: 10_000 } };
    const [title] = screen(initialView(30, ''), 140, 40, reading).split('\n');
    expect(title).toContain('reading history: 3,200 of 10,000 ▰▰▰▱▱▱▱▱▱▱');
    expect(screen(initialView(30, ''), 140, 40, reading)).toContain('infra upgrade');
    // At 80 columns the progress stays, shorter (the sort and the brand go first).
    expect(screen(initialView(30, ''), 80, 24, reading).split('\n')[0]).toContain('reading history 32%');
    const done = screen(initialView(30, ''), 140, 40, { ...SCENE, ready: true, history: { read: 10_000, total: 10_000 } });
    expect(done).not.toContain('reading history');
    expect(done).not.toContain('discovering');
  });

  it('shows the loading indicator until discovery completes, then where it looked', async () => {
    await expect(screen(initialView(30, ''), 80, 24, sessionsState([], false))).toMatchFileSnapshot('__snapshots__/loading.txt');
    await expect(screen(initialView(30, ''), 80, 24, sessionsState([], true, { 'claude:E_DB_LOCKED': 2 }))).toMatchFileSnapshot('__snapshots__/empty.txt');
  });

  it('raises no status line for lines and records skipped inside readable files (doctor lists them, healthy)', () => {
    const skipped = screen(initialView(30, ''), 80, 24, sessionsState([], true, { 'claude:E_JUNK_LINE': 2, 'cursor:E_SCHEMA': 16 }));
    expect(skipped).not.toContain('!');
    expect(screen(initialView(30, ''), 80, 24, sessionsState([], true, { 'claude:E_JUNK_LINE': 2, 'cursor:E_DB_LOCKED': 1 }))).toContain('! 1 problem reading sessions · run agentwatch doctor');
  });

  it('draws the limits modal centered over the panels, with both tabs', async () => {
    const text = { summary: ['┌────────┬──────┐', '│ Agent  │ 5h   │', '└────────┴──────┘'], detailed: Array.from({ length: 40 }, (_, i) => `detail line ${i + 1}`) };
    const loading = drive([{ type: 'openLimits' }]);
    await expect(screen(loading, 80, 24)).toMatchFileSnapshot('__snapshots__/limits-loading.txt');
    const loaded = drive([{ type: 'limitsLoaded', request: 1, text }], loading);
    await expect(screen(loaded, 80, 24)).toMatchFileSnapshot('__snapshots__/limits-summary.txt');
    const scrolled = drive([{ type: 'limitsTab' }, { type: 'scrollLimits', delta: 5 }], loaded);
    await expect(screen(scrolled, 80, 24)).toMatchFileSnapshot('__snapshots__/limits-detailed-scrolled.txt');
  });

  it('says the terminal is too small instead of drawing garbage', () => {
    const lines = render(frameOf(SCENE, initialView(30, ''), ctx, NOW), { width: 30, height: 8 }).map(toPlain);
    expect(lines[0]).toContain('Terminal too small (30x8)');
    expect(lines).toHaveLength(8);
  });
});
