import { describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../../src/core/agents.js';
import { keyToAction, type KeyMode } from '../../../src/sinks/tui/keys.js';
import { selectRows } from '../../../src/sinks/tui/model.js';
import { initialView, pinSelection, reduceView, selectedRow, type Action, type ReduceContext, type ViewState } from '../../../src/sinks/tui/state.js';
import { NOW, SCENE } from './scene.js';
import { tuiRead } from '../../helpers/listing-feed.js';

const read = (view: ViewState) => tuiRead(SCENE, view, { names: {}, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS) }, NOW);
const ctxOf = (view: ViewState): ReduceContext => ({ rows: selectRows(read(view), { filter: view.filter, search: view.search }).rows, now: NOW, detailMaxScroll: 5, limitsMaxScroll: 7 });

/** Run actions through the reducer and collect every effect. */
const run = (actions: readonly Action[], start = initialView(30, '')) =>
  actions.reduce(
    (acc, action) => {
      const reduced = reduceView(acc.view, action, ctxOf(acc.view));
      return { view: reduced.view, effects: [...acc.effects, ...reduced.effects] };
    },
    { view: start, effects: [] as unknown[] },
  );

const selectedName = (view: ViewState): string | undefined => selectedRow(view, ctxOf(view).rows)?.summary.short_name;

describe('reduceView', () => {
  it('moves the selection within bounds and keeps it on the same session when the list reorders', () => {
    expect(selectedName(run([]).view)).toBe('terraform');
    expect(selectedName(run([{ type: 'move', delta: 1 }]).view)).toBe('acme-api');
    expect(selectedName(run([{ type: 'move', delta: -5 }]).view)).toBe('terraform');
    expect(selectedName(run([{ type: 'move', delta: 50 }]).view)).toBe('web-shop');
    expect(selectedName(run([{ type: 'moveTo', where: 'last' }, { type: 'moveTo', where: 'first' }]).view)).toBe('terraform');
    // Filter to waiting: the selected session (acme-api) leaves the list, the selection clamps.
    const { view } = run([{ type: 'move', delta: 1 }, { type: 'cycleFilter' }, { type: 'cycleFilter' }, { type: 'cycleFilter' }]);
    expect(view.filter).toBe('waiting');
    expect(selectedName(view)).toBe('parser');
  });

  it('pins the implicit first-row selection to its session, so a reordering list does not move it', () => {
    const start = initialView(30, '');
    const rows = ctxOf(start).rows;
    const pinned = pinSelection(start, rows);
    expect(pinned.selectedKey).toBe(rows[0]?.key);
    expect(pinSelection(pinned, rows)).toBe(pinned);
    const reordered = [...rows].reverse();
    expect(selectedRow(pinned, reordered)?.key).toBe(rows[0]?.key);
    expect(selectedRow(start, reordered)?.key).toBe(reordered[0]?.key);
  });

  it.each([
    [[], 30],
    [[10], 40],
    [[-10, -10, -10], 10],
    [Array.from({ length: 60 }, () => 10), 480],
  ])('window %j from 30 gives %i minutes (bounded 10..480)', (steps, expected) => {
    expect(run(steps.map((minutes): Action => ({ type: 'widen', minutes }))).view.windowMinutes).toBe(expected);
  });

  it('cycles the filter from default_filter through every value and back', () => {
    const seen: string[] = [];
    let view = initialView(30, 'waiting');
    for (let i = 0; i < 13; i += 1) {
      seen.push(view.filter);
      view = run([{ type: 'cycleFilter' }], view).view;
    }
    expect(seen).toEqual(['waiting', 'thinking', 'compacting', 'reading', 'writing', 'running', 'searching', 'browsing', 'spawning', '', 'active', 'idle', 'waiting']);
  });

  it('search narrows live, enter keeps it, esc restores the previous search', () => {
    const typed: Action[] = [{ type: 'startSearch' }, { type: 'promptInput', text: 'a' }, { type: 'promptInput', text: 'c' }];
    expect(run(typed).view.search).toBe('ac');
    const kept = run([...typed, { type: 'promptSubmit' }]).view;
    expect(kept.search).toBe('ac');
    expect(kept.prompt).toBeUndefined();
    expect(run([...typed, { type: 'promptSubmit' }, { type: 'startSearch' }, { type: 'promptBackspace' }, { type: 'escape' }]).view.search).toBe('ac');
    expect(run([...typed, { type: 'promptSubmit' }, { type: 'escape' }]).view.search).toBe('');
  });

  it('rename opens a prompt with the current name and emits a rename effect on enter', () => {
    const { view, effects } = run([{ type: 'startRename' }, { type: 'promptClear' }, ...[...'infra'].map((text): Action => ({ type: 'promptInput', text })), { type: 'promptSubmit' }]);
    expect(view.prompt).toBeUndefined();
    expect(effects).toEqual([{ type: 'rename', sessionId: 'g1', name: 'infra' }]);
  });

  it('keys typed into a prompt are text, not commands', () => {
    const { view, effects } = run([{ type: 'startSearch' }, keyToAction({ name: 'q', isCharacter: true }, 'prompt') as Action]);
    expect(view.search).toBe('q');
    expect(effects).toEqual([]);
  });

  it('copy and open act on the selected session, or say why they cannot', () => {
    expect(run([{ type: 'move', delta: 1 }, { type: 'copyResume' }]).effects).toEqual([{ type: 'copy', text: 'claude --resume c1' }]);
    expect(run([{ type: 'move', delta: 1 }, { type: 'openEditor' }]).effects).toEqual([{ type: 'openEditor', cwd: '/home/dev/acme-api' }]);
    expect(run([{ type: 'copyResume' }]).effects).toEqual([{ type: 'copy', text: 'grok --resume g1' }]);
    // A grok sub-agent cannot be resumed on its own.
    const start = initialView(30, '');
    const [grok] = ctxOf(start).rows;
    if (!grok) throw new Error('the scene lists the grok session first');
    const subAgent = { key: grok.key, state: { ...grok.state, isSidechain: true }, activity: grok.activity, summary: grok.summary };
    const noResume = reduceView(start, { type: 'copyResume' }, { ...ctxOf(start), rows: [subAgent] });
    expect(noResume.effects).toEqual([]);
    expect(noResume.view.notice).toEqual({ text: 'This session has no resume command', tone: 'error', at: NOW });
  });

  it('limits: opens loading with a read, ignores stale answers, re-reads on r, scrolls within bounds, closes on esc', () => {
    const opened = run([{ type: 'openLimits' }]);
    expect(opened.effects).toEqual([{ type: 'loadLimits', request: 1 }]);
    expect(opened.view.limits).toMatchObject({ phase: 'loading', tab: 'summary' });
    const text = { summary: ['s'], detailed: ['d'] };
    const refreshed = run([{ type: 'refreshLimits' }, { type: 'limitsLoaded', request: 1, text }], opened.view);
    expect(refreshed.effects).toEqual([{ type: 'loadLimits', request: 2 }]);
    expect(refreshed.view.limits?.phase).toBe('loading');
    const loaded = run([{ type: 'limitsLoaded', request: 2, text }, { type: 'limitsTab' }, { type: 'scrollLimits', delta: 100 }], refreshed.view);
    expect(loaded.view.limits).toMatchObject({ phase: 'ready', tab: 'detailed', scroll: 7, text });
    const failed = run([{ type: 'refreshLimits' }, { type: 'limitsFailed', request: 3, message: 'boom' }], loaded.view);
    expect(failed.view.limits).toMatchObject({ phase: 'failed', error: 'boom' });
    expect(run([{ type: 'escape' }], failed.view).view.limits).toBeUndefined();
  });

  it('tab moves focus; in the detail panel up/down scroll the record within bounds', () => {
    const { view } = run([{ type: 'focusNext' }, { type: 'move', delta: 3 }, { type: 'move', delta: 10 }]);
    expect(view).toMatchObject({ focus: 'detail', detailScroll: 5 });
    expect(selectedName(view)).toBe('terraform');
    expect(run([{ type: 'escape' }], view).view.focus).toBe('list');
  });

  it('quit is an effect in every mode', () => {
    expect(run([{ type: 'quit' }]).effects).toEqual([{ type: 'quit' }]);
    expect(run([{ type: 'openLimits' }, { type: 'quit' }]).effects).toContainEqual({ type: 'quit' });
  });
});

describe('keyToAction', () => {
  it.each<[string, boolean, KeyMode, Action | undefined]>([
    ['UP', false, 'normal', { type: 'move', delta: -1 }],
    ['k', true, 'normal', { type: 'move', delta: -1 }],
    ['j', true, 'normal', { type: 'move', delta: 1 }],
    ['TAB', false, 'normal', { type: 'focusNext' }],
    ['+', true, 'normal', { type: 'widen', minutes: 10 }],
    ['-', true, 'normal', { type: 'widen', minutes: -10 }],
    ['f', true, 'normal', { type: 'cycleFilter' }],
    ['/', true, 'normal', { type: 'startSearch' }],
    ['o', true, 'normal', { type: 'openEditor' }],
    ['c', true, 'normal', { type: 'copyResume' }],
    ['r', true, 'normal', { type: 'startRename' }],
    ['l', true, 'normal', { type: 'openLimits' }],
    ['q', true, 'normal', { type: 'quit' }],
    ['CTRL_C', false, 'normal', { type: 'quit' }],
    ['x', true, 'normal', undefined],
    ['constructor', false, 'normal', undefined],
    ['r', true, 'limits', { type: 'refreshLimits' }],
    ['ESCAPE', false, 'limits', { type: 'closeLimits' }],
    ['TAB', false, 'limits', { type: 'limitsTab' }],
    ['DOWN', false, 'limits', { type: 'scrollLimits', delta: 1 }],
    ['CTRL_C', false, 'limits', { type: 'quit' }],
    ['r', true, 'prompt', { type: 'promptInput', text: 'r' }],
    ['é', true, 'prompt', { type: 'promptInput', text: 'é' }],
    ['ENTER', false, 'prompt', { type: 'promptSubmit' }],
    ['BACKSPACE', false, 'prompt', { type: 'promptBackspace' }],
    ['ESCAPE', false, 'prompt', { type: 'escape' }],
    ['CTRL_C', false, 'prompt', { type: 'quit' }],
    ['UP', false, 'prompt', undefined],
  ])('%s (character: %s) in %s mode', (name, isCharacter, mode, expected) => {
    expect(keyToAction({ name, isCharacter }, mode)).toEqual(expected);
  });
});

describe('content search (s)', () => {
  it('s opens a prompt; Enter asks the shell to search; the results select the best listed hit', () => {
    const typed = run([{ type: 'startContentSearch' }, { type: 'promptInput', text: 'oauth refresh' }, { type: 'promptSubmit' }]);
    expect(typed.effects).toEqual([{ type: 'searchContent', query: 'oauth refresh' }]);
    expect(typed.view.prompt).toBeUndefined();
    // The list filter by path/name is untouched: `/` keeps doing that.
    expect(typed.view.search).toBe('');
    const rows = ctxOf(typed.view).rows;
    const target = rows.find((row) => row.key === 'claude:c1');
    const hits = [{ key: 'codex:not-listed' as const }, { key: target?.key ?? 'claude:x' }];
    const found = run([{ type: 'contentResults', query: 'oauth refresh', hits }], typed.view);
    expect(selectedRow(found.view, ctxOf(found.view).rows)?.key).toBe(target?.key);
    // The session is named by its display name, as in the list: not its title or folder.
    expect(found.view.notice?.text).toBe('"oauth refresh": Add rate limiting to the login route (best of 2)');
  });

  it('says when the search index is still catching up: the hits are what it holds so far', () => {
    const partial = run([{ type: 'contentResults', query: 'nothing', hits: [], partial: true }]).view.notice?.text;
    expect(partial).toBe('No session mentions "nothing" (search index catching up: results so far)');
  });

  it('says so when nothing matches, or when the matches are not in this list', () => {
    expect(run([{ type: 'contentResults', query: 'nothing', hits: [] }]).view.notice?.text).toBe('No session mentions "nothing"');
    const outside = run([{ type: 'contentResults', query: 'old', hits: [{ key: 'codex:gone' }] }]).view;
    expect(outside.notice?.text).toContain('none in this list');
    expect(selectedName(outside)).toBe('terraform');
  });

  it('the s key starts it in the list, and is a character inside a prompt', () => {
    expect(keyToAction({ name: 's', isCharacter: true }, 'normal')).toEqual({ type: 'startContentSearch' });
    expect(keyToAction({ name: 's', isCharacter: true }, 'prompt')).toEqual({ type: 'promptInput', text: 's' });
  });
});
