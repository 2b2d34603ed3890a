import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BehaviorSubject, VirtualTimeScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../../src/core/agents.js';
import type { SessionsState } from '../../../src/core/contracts.js';
import { toEffective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import type { RowChange } from '../../../src/sinks/tui/diff.js';
import { createWorktreeLookup } from '../../../src/app/worktree.js';
import { runTui, type RunningTui } from '../../../src/sinks/tui/index.js';
import type { KeyPress, MousePress } from '../../../src/sinks/tui/keys.js';
import type { Size } from '../../../src/sinks/tui/layout.js';
import type { LimitsText } from '../../../src/sinks/tui/state.js';
import type { Screen } from '../../../src/sinks/tui/terminal.js';
import { THEMES } from '../../../src/sinks/tui/theme.js';
import { reduceSession } from '../../../src/streams/reduce-session.js';
import { markDegraded, markRecovered } from '../../../src/util/storage-health.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { nameCell } from '../../helpers/tmux.js';
import { NOW, SCENE, SCENE_SESSIONS, sessionsState } from './scene.js';
import { framesOf } from '../../helpers/listing-feed.js';

process.env.TZ = 'UTC';

// eslint-disable-next-line no-control-regex -- reading the drawn text back without its SGR codes
const stripSgr = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

/** An in-memory terminal: keeps the visible rows, every draw call, and the input handlers. */
const fakeScreen = (initial: Size) => {
  let size = initial;
  const rows: string[] = [];
  const draws: RowChange[][] = [];
  const raw: string[] = [];
  const events: string[] = [];
  let keyHandler: ((key: KeyPress) => void) | undefined;
  let resizeHandler: ((size: Size) => void) | undefined;
  let mouseHandler: ((press: MousePress) => void) | undefined;
  const screen: Screen = {
    size: () => size,
    start: () => events.push('start'),
    restore: () => events.push('restore'),
    suspend: () => events.push('suspend'),
    resume: () => events.push('resume'),
    clear: () => {
      rows.length = 0;
      events.push('clear');
    },
    draw: (changes) => {
      draws.push([...changes]);
      for (const change of changes) rows[change.row] = stripSgr(change.text);
    },
    writeRaw: (bytes) => raw.push(bytes),
    onKey: (handler) => {
      keyHandler = handler;
      return () => (keyHandler = undefined);
    },
    onMouse: (handler) => {
      mouseHandler = handler;
      return () => (mouseHandler = undefined);
    },
    onResize: (handler) => {
      resizeHandler = handler;
      return () => (resizeHandler = undefined);
    },
  };
  return {
    screen,
    rows,
    draws,
    raw,
    events,
    text: () => rows.join('\n'),
    press: (name: string) => keyHandler?.({ name, isCharacter: name.length === 1 }),
    type: (text: string) => [...text].forEach((ch) => keyHandler?.({ name: ch, isCharacter: true })),
    mouse: (name: string, x: number, y: number) => mouseHandler?.({ name, x, y }),
    resize: (next: Size) => {
      size = next;
      resizeHandler?.(next);
    },
    hasKeyHandler: () => keyHandler !== undefined,
  };
};

let home: TempHome;
let scheduler: VirtualTimeScheduler;
let clock = 0;
const advance = (ms: number): void => {
  clock += ms;
  scheduler.maxFrames = clock;
  scheduler.flush();
};

const config = toEffective(configSchema.parse({}), {}).config;

interface Harness extends ReturnType<typeof fakeScreen> {
  readonly tui: RunningTui;
  readonly state$: BehaviorSubject<SessionsState>;
  readonly limitReads: number[];
  readonly limitWidths: number[];
}

const start = (options: { limits?: () => Promise<LimitsText>; size?: Size; names?: Record<string, string> } = {}): Harness => {
  const fake = fakeScreen(options.size ?? { width: 100, height: 30 });
  const state$ = new BehaviorSubject<SessionsState>(SCENE);
  const limitReads: number[] = [];
  const limitWidths: number[] = [];
  const tui = runTui({
    frame$: framesOf(state$, () => NOW + scheduler.now()),
    config,
    env: home.env,
    platform: 'linux',
    now: () => NOW + scheduler.now(),
    scheduler,
    theme: THEMES.plain,
    screen: fake.screen,
    agents: AGENT_KINDS,
    searched: [],
    worktree: createWorktreeLookup(),
    names: options.names ?? {},
    readLimits: () => {
      limitReads.push(fake.screen.size().width);
      const text = options.limits ? options.limits() : Promise.resolve({ summary: ['Claude 61.0% used'], detailed: ['Used 61%'] });
      return text.then((loaded) => (width: number) => {
        limitWidths.push(width);
        return loaded;
      });
    },
    report: (message) => {
      throw new Error(`unexpected crash report: ${message}`);
    },
    exit: (code) => {
      throw new Error(`exit(${code}) must not be called in these tests`);
    },
  });
  running.push(tui);
  return { ...fake, tui, state$, limitReads, limitWidths };
};
const running: RunningTui[] = [];

/** Waits (bounded) for a real file or promise effect, drawing frames meanwhile. */
const until = async (check: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  for (let i = 0; i < 200; i += 1) {
    advance(200);
    if (await check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`timed out waiting for ${what}`);
};

beforeEach(async () => {
  home = await makeTempHome('agentwatch-tui-runtime-');
  scheduler = new VirtualTimeScheduler();
  clock = 0;
});
afterEach(async () => {
  // A failed assertion must not leave a TUI (and its process handlers) behind.
  for (const tui of running.splice(0)) tui.stop();
  await home.cleanup();
});

describe('runTui (the shell, on an in-memory screen and virtual time)', () => {
  it('draws the whole screen once, then only the rows that change', async () => {
    const h = start();
    advance(0);
    expect(h.events[0]).toBe('start');
    expect(h.draws[0]).toHaveLength(30);
    expect(h.text()).toContain('5 sessions · 3 active · 1 waiting');

    // Nothing changes for a while but the spinner: the spinner rows only, never a full redraw.
    advance(1000);
    expect(Math.max(...h.draws.slice(1).map((d) => d.length))).toBeLessThan(10);

    // The waiting session (parser) gets a new prompt: its row and the title change, not the whole screen.
    const parser = SCENE_SESSIONS.find((s) => s.sessionId === 'x1');
    const updated = reduceSession(parser, { type: 'turn', agent: 'codex', sessionId: 'x1', at: NOW + 1000, role: 'user', text: 'and now?' });
    const before = h.draws.length;
    h.state$.next(sessionsState(SCENE_SESSIONS.map((s) => (s.sessionId === 'x1' && updated ? updated : s))));
    advance(300);
    const changed = h.draws.slice(before).flat().map((c) => c.row);
    expect(new Set(changed).size).toBeLessThan(30);
    expect(h.text()).toContain('4 active · 0 waiting');
    h.press('q');
    await h.tui.done;
  });

  it('moves with j/k, renames with r (persisted to session-names.json) and shows the new name', async () => {
    const h = start();
    advance(0);
    h.press('j');
    advance(200);
    expect(h.rows.find((row) => row.startsWith('│›'))).toContain('acme-api');
    h.press('r');
    h.type('login limits');
    h.press('ENTER');
    const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'session-names.json');
    await until(async () => (await readFile(file, 'utf8').catch(() => '')).includes('login limits'), 'session-names.json');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ c1: 'login limits' });
    await until(() => h.text().includes('Renamed to "login limits"'), 'the rename notice');
    expect(h.rows.find((row) => row.startsWith('│›'))).toContain('login limits');
    h.press('q');
    await h.tui.done;
  });

  it('limits: one read on open, one more on r, none in the background, esc closes', async () => {
    const h = start();
    advance(0);
    h.press('l');
    await until(() => h.text().includes('Claude 61.0% used'), 'the limits summary');
    expect(h.limitReads).toHaveLength(1);
    // Rendered for the widest box this screen allows (100 columns: 92 inside the border and padding).
    expect(h.limitWidths).toEqual([92]);
    h.press('TAB');
    advance(200);
    expect(h.text()).toContain('Used 61%');
    h.press('r');
    await until(() => h.limitReads.length === 2, 'the re-read');
    advance(2 * 60_000);
    expect(h.limitReads).toHaveLength(2);
    h.press('ESCAPE');
    advance(200);
    expect(h.text()).not.toContain('Limits');
    h.press('q');
    await h.tui.done;
  });

  it('a failed limits read is shown in the modal, not thrown', async () => {
    const h = start({ limits: () => Promise.reject(new Error('network down')) });
    advance(0);
    h.press('l');
    await until(() => h.text().includes('network down'), 'the error');
    h.press('q');
    h.press('CTRL_C');
    await h.tui.done;
  });

  it('redraws everything after a resize, at the new size (down to 80x24)', async () => {
    const h = start();
    advance(0);
    h.resize({ width: 80, height: 24 });
    advance(200);
    expect(h.events).toContain('clear');
    expect(h.draws.at(-1)).toHaveLength(24);
    expect(h.draws.at(-1)?.every((c) => stripSgr(c.text).length === 80)).toBe(true);
    h.press('q');
    await h.tui.done;
  });

  it('copy writes OSC 52 and reports it', async () => {
    const h = start();
    advance(0);
    h.press('j');
    h.press('c');
    await until(() => h.text().includes('Copied: claude --resume c1'), 'the copy notice');
    expect(h.raw).toEqual([`\u001b]52;c;${Buffer.from('claude --resume c1').toString('base64')}\u0007`]);
    h.press('q');
    await h.tui.done;
  });

  it('q restores the screen, removes its handlers and stops listening', async () => {
    const listeners = process.listenerCount('uncaughtException');
    const h = start();
    advance(0);
    expect(process.listenerCount('uncaughtException')).toBe(listeners + 1);
    h.press('q');
    await h.tui.done;
    expect(h.events.at(-1)).toBe('restore');
    expect(process.listenerCount('uncaughtException')).toBe(listeners);
    expect(h.hasKeyHandler()).toBe(false);
    expect(h.state$.observed).toBe(false);
  });

  it('an error in the pipeline ends the TUI with the screen restored', async () => {
    const h = start();
    advance(0);
    h.state$.error(new Error('pipeline broke'));
    await expect(h.tui.done).rejects.toThrow('pipeline broke');
    expect(h.events.at(-1)).toBe('restore');
  });

  it('stop() from outside (the monitor on SIGTERM) restores too', async () => {
    const h = start();
    advance(0);
    h.tui.stop();
    await h.tui.done;
    expect(h.events.at(-1)).toBe('restore');
  });
});

/** Session rows on the fake screen, top to bottom: from under the column headers to the first blank row or rule. */
const listed = (h: Harness): string[] => {
  const header = h.rows.findIndex((row) => /ACTIVITY +NAME/.test(row));
  const out: string[] = [];
  for (const row of h.rows.slice(header + 1)) {
    if (!/^│[ ›]\S/.test(row)) break;
    out.push(row);
  }
  return out;
};
const selected = (h: Harness): string => h.rows.find((row) => row.startsWith('│›')) ?? '';

/** `count` idle claude sessions in projects p00, p01… (p00 the newest), one minute apart. */
const manySessions = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const id = `m${String(i).padStart(2, '0')}`;
    const meta = reduceSession(undefined, { type: 'meta', agent: 'claude', sessionId: id, patch: { cwd: `/home/dev/p${String(i).padStart(2, '0')}` } });
    const s = reduceSession(meta, { type: 'turn', agent: 'claude', sessionId: id, at: NOW - (3 + i) * 60_000, role: 'user', text: `task ${i}` });
    if (!s) throw new Error('scene: no session');
    return s;
  });

describe('runTui: order, mouse, help and warnings', () => {
  it('needs-you: a new record moves nobody; a session that gets a prompt joins the working ones; the selection follows it', () => {
    const h = start({ names: { g1: 'infra upgrade' } });
    advance(0);
    const names = (): string[] => listed(h).map((row) => nameCell(h.text(), row));
    // Waiting for you, then working, then idle; the scene's sessions started at no known time: by id.
    expect(names()).toEqual(['Why does the lexer …', 'Add rate limiting t…', 'infra upgrade', 'summarise today', 'Checkout page']);
    // Select pi ("summarise today"), the fourth row.
    h.press('j');
    h.press('j');
    h.press('j');
    advance(200);
    expect(selected(h)).toContain('summarise today');
    // pi writes again: by raw time it would be the newest, but nothing really changed for the order.
    const pi = SCENE_SESSIONS.find((s) => s.sessionId === 'p1');
    const piAgain = reduceSession(pi, { type: 'tool_call', agent: 'pi', sessionId: 'p1', at: NOW + 500, name: 'Read', callId: 'r1' });
    let sessions = SCENE_SESSIONS.map((s) => (s.sessionId === 'p1' && piAgain ? piAgain : s));
    h.state$.next(sessionsState(sessions));
    advance(1000);
    expect(names()).toEqual(['Why does the lexer …', 'Add rate limiting t…', 'infra upgrade', 'summarise today', 'Checkout page']);
    // amp was idle and gets a prompt: it joins the working ones; pi is still selected, one row lower.
    const amp = SCENE_SESSIONS.find((s) => s.sessionId === 'a1');
    const ampAgain = reduceSession(amp, { type: 'turn', agent: 'amp', sessionId: 'a1', at: NOW + 1200, role: 'user', text: 'and the cart' });
    sessions = sessions.map((s) => (s.sessionId === 'a1' && ampAgain ? ampAgain : s));
    h.state$.next(sessionsState(sessions));
    advance(1000);
    expect(names()).toEqual(['Why does the lexer …', 'Checkout page', 'Add rate limiting t…', 'infra upgrade', 'summarise today']);
    expect(selected(h)).toContain('summarise today');
    expect(h.text()).toContain('Sessions 5/5');
    h.tui.stop();
  });

  it('S cycles the sort from sort_order: needs-you, recent, started, name, cost, project, then needs-you again', () => {
    const h = start();
    advance(0);
    expect(h.rows[0]).toContain('sort needs-you');
    expect(listed(h)[0]).toContain('waiting');
    for (const word of ['recent', 'started', 'name', 'cost']) {
      h.press('S');
      advance(200);
      expect(h.rows[0]).toContain(`sort ${word}`);
    }
    h.press('S');
    advance(200);
    expect(h.rows[0]).toContain('sort project');
    expect(listed(h).map((row) => /(acme-api|notes|parser|terraform|web-shop)/.exec(row)?.[1])).toEqual(['acme-api', 'notes', 'parser', 'terraform', 'web-shop']);
    h.press('S');
    advance(200);
    expect(h.rows[0]).toContain('sort needs-you');
    h.tui.stop();
  });

  it('a click selects the row under it, a click in the detail panel focuses it, the wheel scrolls what is under the pointer', () => {
    const h = start();
    h.state$.next(sessionsState(manySessions(25)));
    advance(200);
    // 100x30: title (row 0), top border (1), headers (2), the first session row is row 3.
    expect(selected(h)).toContain('p00');
    h.mouse('MOUSE_LEFT_BUTTON_PRESSED', 30, 5);
    advance(200);
    expect(selected(h)).toContain('p02');
    expect(h.text()).toContain('Sessions 3/25');
    // The wheel moves the view three rows a notch; the selected session stays selected while in view.
    h.mouse('MOUSE_WHEEL_DOWN', 30, 5);
    advance(200);
    expect(listed(h)[0]).toContain('p03');
    // p02 left the view: the selection moves to the nearest row in view.
    expect(selected(h)).toContain('p03');
    h.mouse('MOUSE_WHEEL_DOWN', 30, 5);
    h.mouse('MOUSE_WHEEL_DOWN', 30, 5);
    advance(200);
    expect(listed(h)[0]).toContain('p09');
    h.mouse('MOUSE_LEFT_BUTTON_PRESSED', 30, 4);
    advance(200);
    expect(selected(h)).toContain('p10');
    // The detail panel (below the list at 100 columns): a click focuses it, the wheel scrolls it.
    const detailRow = h.rows.findIndex((row) => row.startsWith('├─ Detail'));
    h.mouse('MOUSE_LEFT_BUTTON_PRESSED', 30, detailRow + 2);
    h.mouse('MOUSE_WHEEL_DOWN', 30, detailRow + 2);
    advance(200);
    expect(h.rows[detailRow]).toMatch(/Detail {2}4-/);
    expect(selected(h)).toContain('p10');
    h.tui.stop();
  });

  it('? shows every key, the agent legend and the warnings; warnings open the list while the TUI runs', () => {
    const h = start();
    advance(0);
    h.tui.warn('/home/dev/.config/agentwatch/config.json: unknown key "window_minuts" (did you mean "window_minutes"?)');
    advance(200);
    const status = h.rows[2] ?? '';
    expect(status).toMatch(/^│ ! 1 warning: config\.json: unknown key "window_minuts" .*… · \? lists all · agentwatch doctor│$/);
    h.press('?');
    advance(200);
    // Read every page of the overlay.
    let help = h.text();
    for (let i = 0; i < 6; i += 1) {
      h.press('PAGE_DOWN');
      advance(200);
      help += h.text();
    }
    for (const text of ['Help: keys, agents, warnings', 'rename it', 'sort: needs you first, recent, started, name, cost, project', 'U cursor', 'π pi', 'D claude (Desktop app)', 'compacting', 'Warnings (1)', '"window_minuts"']) {
      expect(help).toContain(text);
    }
    // Keys of the list do nothing while it is open; esc closes it.
    h.press('j');
    h.press('ESCAPE');
    advance(200);
    expect(h.text()).not.toContain('Help: keys');
    // Still the first row (waiting for you, first in needs-you).
    expect(selected(h)).toContain('Why does the lexer');
    h.tui.stop();
  });

  it('a store without its disk opens the list with a status line until the disk recovers', () => {
    const h = start();
    advance(0);
    expect(h.text()).not.toContain('disk full');
    markDegraded({ store: 'webhook queue', file: '/cache/webhooks.db', fault: 'full', meanwhile: 'deliveries are kept in memory', since: NOW });
    try {
      // No session changes: the next redraw (at most a second later) says it.
      advance(1000);
      expect(h.rows[2]).toMatch(/^│ ! webhook queue in memory: disk full +│$/);
      h.tui.warn('webhooks: receiver down');
      advance(1000);
      expect(h.rows[2]).toMatch(/^│ ! webhook queue in memory: disk full · 1 warning · \? lists all +│$/);
    } finally {
      markRecovered('webhook queue');
    }
    advance(1000);
    expect(h.text()).not.toContain('disk full');
    expect(h.rows[2]).toMatch(/^│ ! 1 warning: webhooks: receiver down/);
    h.tui.stop();
  });

  it('the limits text is rendered again for a new width after a resize, without another read', async () => {
    const h = start();
    advance(0);
    h.press('l');
    await until(() => h.text().includes('Claude 61.0% used'), 'the limits summary');
    h.resize({ width: 80, height: 24 });
    advance(200);
    expect(h.limitReads).toHaveLength(1);
    expect(h.limitWidths).toEqual([92, 72]);
    h.tui.stop();
  });
});
