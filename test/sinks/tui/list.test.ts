import { describe, expect, it } from 'vitest';
import type { Activity } from '../../../src/core/activity.js';
import { sessionKey, type SessionState } from '../../../src/core/session.js';
import { planColumns, shortModel } from '../../../src/sinks/tui/columns.js';
import { KEY_REFERENCE, keyToAction, type KeyMode } from '../../../src/sinks/tui/keys.js';
import { hitTest } from '../../../src/sinks/tui/layout.js';
import { mouseToAction } from '../../../src/sinks/tui/mouse.js';
import { orderRows, type SortMode } from '../../../src/sinks/tui/order.js';
import { BASE_STYLES, THEMES } from '../../../src/sinks/tui/theme.js';
import { ACTIVITIES } from '../../../src/core/activity.js';
import { inWindowOrder } from '../../../src/limits/windows.js';
import { AGENT_KINDS } from '../../../src/core/agents.js';
import { AGENTS } from '../../../src/sources/agents.js';
import { toSummary } from '../../../src/streams/views.js';
import { fold, NOW } from './scene.js';

const session = (id: string, cwd: string, lastActivityAt: number, createdAt = lastActivityAt): SessionState =>
  ({ ...fold([{ type: 'meta', agent: 'claude', sessionId: id, patch: { cwd } }]), lastActivityAt, createdAt }) as SessionState;

const row = (s: SessionState, activity: Activity) => ({ key: sessionKey(s), state: s, activity, summary: toSummary(s, { now: NOW }) });

/** Orders each frame, a list of (session, activity), on its own; returns the ids in order per frame. */
const frames = (mode: SortMode, steps: readonly (readonly ReturnType<typeof row>[])[]): string[][] =>
  steps.map((rows) => orderRows(rows, mode).map((r) => r.state.sessionId));

describe('list order (S): rows move only when something real changed', () => {
  const a = session('a', '/w/alpha', NOW - 5000);
  const b = session('b', '/w/beta', NOW - 3000);
  const c = session('c', '/w/gamma', NOW - 600_000);
  const d = session('d', '/w/alpha', NOW - 900_000, NOW - 2_000_000);

  it('needs-you: waiting, then working, then idle, newest started first; a new record moves nobody', () => {
    const later = { ...a, lastActivityAt: NOW + 1000 };
    expect(
      frames('needs-you', [
        [row(a, 'running'), row(b, 'reading'), row(c, 'idle'), row(d, 'idle')],
        // a writes again: by raw time it would jump above b.
        [row(later, 'writing'), row(b, 'reading'), row(c, 'idle'), row(d, 'idle')],
        // a finishes its turn and waits for you: it goes first, the others keep their order.
        [row(later, 'waiting'), row(b, 'reading'), row(c, 'idle'), row(d, 'idle')],
      ]),
    ).toEqual([
      ['b', 'a', 'c', 'd'],
      ['b', 'a', 'c', 'd'],
      ['a', 'b', 'c', 'd'],
    ]);
  });

  it('needs-you: a session that starts working joins the working ones; one that goes idle joins the idle ones', () => {
    const cWorks = { ...c, lastActivityAt: NOW + 2000 };
    expect(
      frames('needs-you', [
        [row(a, 'running'), row(b, 'reading'), row(c, 'idle'), row(d, 'idle')],
        [row(a, 'running'), row(b, 'reading'), row(cWorks, 'thinking'), row(d, 'idle')],
        [row(a, 'idle'), row(b, 'reading'), row(cWorks, 'thinking'), row(d, 'idle')],
      ]),
    ).toEqual([
      ['b', 'a', 'c', 'd'],
      ['b', 'a', 'c', 'd'],
      ['b', 'c', 'a', 'd'],
    ]);
  });

  it('recent: by the last activity, newest first', () => {
    expect(
      frames('recent', [
        [row(a, 'running'), row(b, 'waiting'), row(c, 'idle'), row(d, 'reading')],
        [row({ ...a, lastActivityAt: NOW + 9000 }, 'writing'), row(b, 'waiting'), row(c, 'idle'), row(d, 'reading')],
      ]),
    ).toEqual([
      ['b', 'a', 'c', 'd'],
      ['a', 'b', 'c', 'd'],
    ]);
  });

  it('project: by folder name, then newest started first; activity never moves a row', () => {
    expect(
      frames('project', [
        [row(a, 'running'), row(b, 'waiting'), row(c, 'idle'), row(d, 'reading')],
        [row(a, 'idle'), row(b, 'running'), row(c, 'thinking'), row(d, 'idle')],
      ]),
    ).toEqual([
      ['a', 'd', 'b', 'c'],
      ['a', 'd', 'b', 'c'],
    ]);
  });
});

describe('columns by width', () => {
  const ids = (width: number): string[] => planColumns(width).columns.map((c) => c.id);

  it('adds columns as the width allows and never leaves the name narrower than 14', () => {
    expect(ids(38)).toEqual(['agent', 'activity', 'name', 'age']);
    expect(ids(61)).toEqual(['agent', 'activity', 'name', 'project', 'cost', 'age']);
    expect(ids(78)).toEqual(['agent', 'activity', 'name', 'project', 'cost', 'age', 'spark']);
    expect(ids(98)).toEqual(['agent', 'activity', 'name', 'project', 'model', 'cost', 'age', 'spark']);
    expect(ids(125)).toEqual(['agent', 'activity', 'name', 'project', 'model', 'cost', 'age', 'spark']);
    for (const width of [38, 50, 60, 78, 98, 125, 200]) {
      const plan = planColumns(width);
      const used = 1 + plan.columns.reduce((sum, c) => sum + c.width, 0) + plan.columns.length - 1;
      expect(used, `width ${width}`).toBe(width);
      expect(plan.columns.find((c) => c.id === 'name')?.width ?? 0).toBeGreaterThanOrEqual(14);
    }
    expect(planColumns(125)).toMatchObject({ agentNames: true, sparkMinutes: 12 });
    expect(planColumns(38)).toMatchObject({ agentNames: false, sparkMinutes: 0 });
  });

  it('shortens model names to what tells them apart', () => {
    expect(shortModel('claude-sonnet-4-5-20250929')).toBe('sonnet-4-5');
    expect(shortModel('anthropic/claude-opus-4-1')).toBe('opus-4-1');
    expect(shortModel('gpt-5-codex')).toBe('gpt-5-codex');
  });
});

/** How the `?` overlay spells a terminal-kit key name. */
const SPELLED: Readonly<Record<string, string>> = {
  UP: '↑',
  DOWN: '↓',
  PAGE_UP: 'PgUp',
  PAGE_DOWN: 'PgDn',
  HOME: 'Home',
  END: 'End',
  TAB: 'tab',
  SHIFT_TAB: 'shift-tab',
  ESCAPE: 'esc',
  CTRL_C: 'ctrl-c',
  LEFT: '←',
  RIGHT: '→',
};

describe('keys', () => {
  it('the ? overlay lists every key bound in the list and the limits window', () => {
    const listed = KEY_REFERENCE.flatMap((section) => section.keys.map(([keys]) => keys)).join(' ').split(/\s+/);
    const candidates = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-=_/?'.split(''), ...Object.keys(SPELLED)];
    for (const mode of ['normal', 'limits'] as const satisfies readonly KeyMode[]) {
      for (const name of candidates) {
        if (keyToAction({ name, isCharacter: name.length === 1 }, mode) === undefined) continue;
        expect(listed, `${mode} key ${name}`).toContain(SPELLED[name] ?? name);
      }
    }
  });

  it('mouse: a click selects the row under it, the wheel scrolls what is under the pointer', () => {
    const size = { width: 100, height: 30 };
    // Row 3 is the first session row (title, border, headers); with a status line, row 4.
    expect(hitTest(size, false, 10, 3)).toEqual({ area: 'list', row: 0 });
    expect(hitTest(size, true, 10, 3)).toEqual({ area: 'none' });
    expect(hitTest(size, true, 10, 6)).toEqual({ area: 'list', row: 2 });
    expect(hitTest(size, false, 10, 20)).toEqual({ area: 'detail' });
    expect(hitTest(size, false, 0, 5)).toEqual({ area: 'none' });
    expect(mouseToAction({ name: 'MOUSE_LEFT_BUTTON_PRESSED', x: 10, y: 5 }, 'normal', { area: 'list', row: 2 }, 7)).toEqual({ type: 'select', index: 9 });
    expect(mouseToAction({ name: 'MOUSE_WHEEL_DOWN', x: 10, y: 5 }, 'normal', { area: 'list', row: 2 }, 7)).toEqual({ type: 'scrollList', delta: 3 });
    expect(mouseToAction({ name: 'MOUSE_WHEEL_UP', x: 10, y: 20 }, 'normal', { area: 'detail' }, 0)).toEqual({ type: 'scrollDetail', delta: -3 });
    expect(mouseToAction({ name: 'MOUSE_WHEEL_UP', x: 10, y: 20 }, 'limits', { area: 'modal' }, 0)).toEqual({ type: 'scrollLimits', delta: -3 });
    expect(mouseToAction({ name: 'MOUSE_LEFT_BUTTON_PRESSED', x: 0, y: 0 }, 'help', { area: 'none' }, 0)).toEqual({ type: 'toggleHelp' });
    expect(mouseToAction({ name: 'MOUSE_LEFT_BUTTON_PRESSED', x: 10, y: 5 }, 'prompt', { area: 'list', row: 0 }, 0)).toBeUndefined();
    expect(mouseToAction({ name: 'MOUSE_MOTION', x: 10, y: 5 }, 'normal', { area: 'list', row: 0 }, 0)).toBeUndefined();
  });

  it('every agent has a glyph color in every theme', () => {
    const roles = [...BASE_STYLES, ...ACTIVITIES.map((a) => `act.${a}` as const), ...AGENT_KINDS.map((kind) => `agent.${kind}` as const)];
    for (const theme of Object.values(THEMES)) for (const role of roles) expect(theme.styles[role], `${theme.name} ${role}`).toBeDefined();
  });

  it("takes each agent's glyph color in the dark and the light theme from its descriptor", () => {
    for (const kind of AGENT_KINDS) {
      expect(THEMES.dark.styles[`agent.${kind}`], kind).toEqual({ fg: AGENTS[kind].colour.tui.dark, bold: true });
      expect(THEMES.light.styles[`agent.${kind}`], kind).toEqual({ fg: AGENTS[kind].colour.tui.light, bold: true });
      expect(THEMES.plain.styles[`agent.${kind}`], kind).toEqual({});
    }
  });
});

describe('limits windows', () => {
  it('are listed shortest first for every agent (kimi answers weekly first)', () => {
    const kimi = [
      { label: 'weekly', windowSeconds: 604_800 },
      { label: '5-hour', windowSeconds: 18_000 },
      { label: 'odd' },
    ];
    expect(inWindowOrder(kimi).map((w) => w.label)).toEqual(['5-hour', 'weekly', 'odd']);
  });
});
