import { describe, expect, it, vi } from 'vitest';
import { CONFIG_BOUNDS } from '../../src/config/bounds.js';
import type { SessionDetail, SessionSummary } from '../../src/core/session.js';
import { lastPrompt, sessionName as nameOf } from '../../src/core/session-name.js';
import { nextDelay, retryAfterMs } from '../../web/src/lib/backoff.js';
import { faviconFor, faviconSvg, titleFor } from '../../web/src/lib/badge.js';
import { age, ago, cost, costTotal, displayName, localTime, placeLine, sessionCost, sessionName, shortModel, tokens, windowLabel } from '../../web/src/lib/format.js';
import { displayNameOf as tuiDisplayNameOf } from '../../src/sinks/tui/model.js';
import { detailWidth, dragTo, EDGE, fitInside, initialRect, MIN_DIALOG, resizeBy } from '../../web/src/lib/geometry.js';
import { keyAction } from '../../web/src/lib/keys.js';
import { latestOnly } from '../../web/src/lib/latest.js';
import { paceText, resetsText, splitRows, usedTone, windowSeverity } from '../../web/src/lib/limits-view.js';
import { isShown, matchesSearch, moveSelection, newestFirst, nextFilter, stepWindow, waitingCount } from '../../web/src/lib/listing.js';
import { linesOf, numberOrRaw } from '../../web/src/lib/settings.js';
import { snippetParts } from '../../web/src/lib/snippet.js';
import { createDetailLoader } from '../../web/src/lib/details.js';
import { barHeights, perMinute } from '../../web/src/lib/sparkline.js';
import { createMessageParser } from '../../web/src/lib/sse-parse.js';
import { base64Url, fragmentWithoutToken, tokenFromFragment } from '../../web/src/lib/token.js';
import { NO_WAITING, trackWaiting, type WaitingInput, type WaitState } from '../../web/src/lib/waiting.js';

/** The bounds the server sends with GET /api/config. */
const STEPPER = CONFIG_BOUNDS.window_minutes.stepper;
const DETAIL_WIDTH = CONFIG_BOUNDS.detail_width;

/** The dashboard's pure modules (web/src/lib), run in Node: what the browser tests cannot pin down cheaply. */

const summary = (over: Partial<SessionSummary> = {}): SessionSummary => {
  const s: Omit<SessionSummary, 'display_name'> = {
    session_id: 's-1',
    agent: 'claude',
    cwd: '/home/dev/src/parser',
    short_name: 'parser',
    agent_name: '',
    custom_name: '',
    source: 'cli',
    activity: 'idle',
    is_active: false,
    model: 'claude-sonnet-4-5-20250929',
    git_branch: 'main',
    cost_usd: 0,
    cost_source: null,
    last_activity: '2026-11-24T10:00:00.000Z',
    total_messages: 2,
    started_at: '0001-01-01T00:00:00Z',
    order_group: 'idle',
    waiting_since: '',
    ...over,
  };
  return { ...s, display_name: over.display_name ?? nameOf(s, '').text };
};

describe('SSE parser', () => {
  /** The messages each `push` completes, as the dashboard dispatches them, and the last retry. */
  const createSseParser = () => {
    let out: { event: string; data: string }[] = [];
    let retry: number | undefined;
    const parser = createMessageParser(
      (event, data) => out.push({ event, data }),
      (ms) => (retry = ms),
    );
    return {
      push: (chunk: string) => {
        parser.feed(chunk);
        const done = out;
        out = [];
        return done;
      },
      retryMs: () => retry,
    };
  };

  it('reads events split anywhere, CRLF and lone CR line ends, comments and retry', () => {
    const parser = createSseParser();
    const text = 'retry: 3000\r\n\r\n: keep-alive\n\nevent: snapshot\ndata: {"a":\n\nevent: patch\r\ndata: 1\rdata: 2\r\n\r\n';
    const messages = [];
    // One character at a time: every split point, including between CR and LF.
    for (const char of text) messages.push(...parser.push(char));
    expect(messages).toEqual([
      { event: 'snapshot', data: '{"a":' },
      { event: 'patch', data: '1\n2' },
    ]);
    expect(parser.retryMs()).toBe(3000);
  });

  it('keeps an unfinished message until its blank line arrives; a data-less block is no message', () => {
    const parser = createSseParser();
    expect(parser.push('event: ready\ndata: {"stats":{}}\n')).toEqual([]);
    expect(parser.push('\nevent: lonely\n\n')).toEqual([{ event: 'ready', data: '{"stats":{}}' }]);
    expect(parser.push('data:no space\n\n')).toEqual([{ event: 'message', data: 'no space' }]);
  });
});

describe('token in the URL fragment', () => {
  it('finds the token alone or among other parameters, and removes only it', () => {
    expect(tokenFromFragment('#token=abc_DEF-12')).toBe('abc_DEF-12');
    expect(tokenFromFragment('#view=x&token=a%2Bb')).toBe('a+b');
    expect(tokenFromFragment('#tokens=abc')).toBeUndefined();
    expect(tokenFromFragment('#token=')).toBeUndefined();
    expect(tokenFromFragment('')).toBeUndefined();
    expect(tokenFromFragment('#token=%E0%A4%A')).toBeUndefined();
    expect(fragmentWithoutToken('#token=abc')).toBe('');
    expect(fragmentWithoutToken('#a=1&token=abc&b=2')).toBe('#a=1&b=2');
  });

  it('encodes a derived key as base64url without padding (the server test vector)', async () => {
    const { pbkdf2Sync } = await import('node:crypto');
    const key = pbkdf2Sync('pippo', 'lazyagent-api-v1', 600_000, 32, 'sha256');
    expect(base64Url(new Uint8Array(key))).toBe('zqh9_r0QeYpLiLSQGZMYriIWqNZgZOu3Qc_l7wtraV4');
    expect(base64Url(new Uint8Array([251, 255]))).toBe('-_8');
  });
});

describe('reconnect backoff', () => {
  it('doubles from 1 s to at most 30 s and reads Retry-After seconds', () => {
    const delays: number[] = [];
    let delay: number | undefined;
    for (let i = 0; i < 7; i++) delays.push((delay = nextDelay(delay)));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(retryAfterMs('12')).toBe(12_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBeUndefined();
  });
});

describe('listing rules', () => {
  it('orders newest first, then by id, and unknown times last', () => {
    const list = [
      summary({ session_id: 'b', last_activity: '2026-11-24T10:00:00.000Z' }),
      summary({ session_id: 'c', last_activity: '0001-01-01T00:00:00Z' }),
      summary({ session_id: 'e', last_activity: '' }),
      summary({ session_id: 'a', last_activity: '2026-11-24T10:00:00.000Z' }),
      summary({ session_id: 'd', last_activity: '2026-11-24T11:00:00.000Z' }),
    ].sort(newestFirst);
    expect(list.map((s) => s.session_id)).toEqual(['d', 'a', 'b', 'c', 'e']);
  });

  it('searches names and paths case-insensitively, every word', () => {
    const s = summary({ custom_name: 'Fix Leap Years', cwd: '/home/dev/src/parser' });
    expect(matchesSearch(s, 'leap')).toBe(true);
    expect(matchesSearch(s, 'PARSER leap')).toBe(true);
    expect(matchesSearch(s, 'parser march')).toBe(false);
    expect(matchesSearch(s, '   ')).toBe(true);
    expect(isShown(summary({ activity: 'waiting' }), '', 'active')).toBe(false);
    expect(isShown(summary({ activity: 'writing' }), '', 'active')).toBe(true);
    expect(isShown(summary({ activity: 'writing' }), 'parser', 'writing')).toBe(true);
    // What was said: a session the message search found is shown, within the activity filter.
    expect(isShown(summary({ activity: 'writing' }), 'checkout', '')).toBe(false);
    expect(isShown(summary({ activity: 'writing' }), 'checkout', '', new Set(['s-1']))).toBe(true);
    expect(isShown(summary({ activity: 'writing' }), 'checkout', 'idle', new Set(['s-1']))).toBe(false);
  });

  it('steps the window by 10 minutes within 10..480, and a larger window only narrows', () => {
    expect(stepWindow(30, 1, STEPPER)).toBe(40);
    expect(stepWindow(30, -1, STEPPER)).toBe(20);
    expect(stepWindow(10, -1, STEPPER)).toBe(10);
    expect(stepWindow(480, 1, STEPPER)).toBe(480);
    expect(stepWindow(1440, 1, STEPPER)).toBe(1440);
    expect(stepWindow(1440, -1, STEPPER)).toBe(480);
    expect(stepWindow(5, 1, STEPPER)).toBe(15);
  });

  it('does not step the window before the server said how (no bounds yet)', () => {
    expect(stepWindow(30, 1, undefined)).toBe(30);
    expect(stepWindow(30, -1, undefined)).toBe(30);
  });

  it('cycles the filter and moves the selection within bounds', () => {
    expect(nextFilter('')).toBe('active');
    expect(nextFilter('idle')).toBe('');
    expect(nextFilter('browsing')).toBe('');
    expect(moveSelection(['a', 'b', 'c'], undefined, 1)).toBe('a');
    expect(moveSelection(['a', 'b', 'c'], undefined, -1)).toBe('c');
    expect(moveSelection(['a', 'b', 'c'], 'a', -1)).toBe('a');
    expect(moveSelection(['a', 'b', 'c'], 'b', 1)).toBe('c');
    expect(moveSelection(['a', 'b', 'c'], 'gone', 1)).toBe('a');
    expect(moveSelection([], 'a', 1)).toBeUndefined();
    expect(waitingCount([summary({ activity: 'waiting' }), summary(), summary({ activity: 'waiting' })])).toBe(2);
  });
});

describe('keys', () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
  it('maps the keys docs/dashboard.md lists, and only Esc while typing', () => {
    expect(['/', 'f', '+', '-', 'l', 'r', 'j', 'k', 'Enter', '?', 'Escape'].map((k) => keyAction(key(k), false))).toEqual([
      'search',
      'filter',
      'widen',
      'narrow',
      'limits',
      'refresh-limits',
      'down',
      'up',
      'open',
      'shortcuts',
      'escape',
    ]);
    expect(keyAction(key('l'), true)).toBeUndefined();
    expect(keyAction(key('Escape'), true)).toBe('escape');
    expect(keyAction(key('r', { ctrlKey: true }), false)).toBeUndefined();
    expect(keyAction(key('x'), false)).toBeUndefined();
  });
});

describe('dialog geometry', () => {
  const viewport = { width: 1200, height: 800 };
  it('keeps a rect inside the window, shrinking it when the window is smaller', () => {
    expect(fitInside({ x: 900, y: 100, width: 500, height: 300 }, viewport)).toEqual({ x: 1200 - EDGE - 500, y: 100, width: 500, height: 300 });
    expect(fitInside({ x: -50, y: -20, width: 500, height: 300 }, viewport)).toEqual({ x: EDGE, y: EDGE, width: 500, height: 300 });
    const small = fitInside({ x: 600, y: 400, width: 500, height: 300 }, { width: 400, height: 250 });
    expect(small).toEqual({ x: EDGE, y: EDGE, width: 400 - 2 * EDGE, height: 250 - 2 * EDGE });
  });

  it('drags and resizes without leaving the window; the size never drops below the minimum', () => {
    const start = { x: 100, y: 100, width: 400, height: 300 };
    expect(dragTo(start, 50, -30, viewport)).toEqual({ ...start, x: 150, y: 70 });
    expect(dragTo(start, 5000, 5000, viewport)).toEqual({ ...start, x: 1200 - EDGE - 400, y: 800 - EDGE - 300 });
    expect(resizeBy(start, 100, 50, viewport)).toEqual({ ...start, width: 500, height: 350 });
    expect(resizeBy(start, -1000, -1000, viewport)).toEqual({ ...start, width: MIN_DIALOG.width, height: MIN_DIALOG.height });
    expect(resizeBy(start, 5000, 5000, viewport)).toEqual({ ...start, width: 1200 - EDGE - 100, height: 800 - EDGE - 100 });
    const first = initialRect(viewport);
    expect(fitInside(first, viewport)).toEqual(first);
  });

  it('bounds the detail panel width to 300..2000 and the window', () => {
    expect(detailWidth(250, 1600, DETAIL_WIDTH)).toBe(300);
    expect(detailWidth(640.4, 1600, DETAIL_WIDTH)).toBe(640);
    expect(detailWidth(3000, 4000, DETAIL_WIDTH)).toBe(2000);
    expect(detailWidth(1500, 1200, DETAIL_WIDTH)).toBe(960);
  });
});

describe('session names (card, detail panel, panel view: as the TUI)', () => {
  // The latest prompt reaches the dashboard in the summary's display_name, named by the server's rule.
  const named = (over: Partial<SessionSummary>, ...prompts: string[]): SessionSummary => {
    const s = summary(over);
    return { ...s, display_name: nameOf(s, lastPrompt(prompts.map((text) => ({ role: 'user', text })))).text };
  };
  it('the rename, else the title, else the latest prompt, else the folder; the line under it never repeats the name', () => {
    const at = { cwd: '/home/dev/work/src', short_name: 'src' };
    const untitled = summary(at);
    expect(sessionName(named(at, 'first', 'Fix the\nflaky test'))).toEqual({ text: 'Fix the flaky test', source: 'prompt' });
    expect(placeLine(untitled, sessionName(named(at, 'Fix it')))).toBe('src');
    // Without a prompt: the folder, and the line says where it is.
    expect(sessionName(untitled)).toEqual({ text: 'src', source: 'project' });
    expect(placeLine(untitled, sessionName(untitled))).toBe('/home/dev/work/');
    expect(placeLine(summary({ cwd: '/src', short_name: 'src' }), { source: 'project' })).toBe('');
    expect(sessionName(named({ agent_name: 'Theirs' }, 'Fix it'))).toEqual({ text: 'Theirs', source: 'title' });
    expect(sessionName(named({ custom_name: 'Mine', agent_name: 'Theirs' }, 'Fix it'))).toEqual({ text: 'Mine', source: 'custom' });
    expect(sessionName(summary({ short_name: '', session_id: '0123456789' })).text).toBe('01234567');
  });

  it('is the TUI list and detail panel name', () => {
    for (const over of [{}, { agent_name: 'Theirs' }, { custom_name: 'Mine', agent_name: 'Theirs' }]) {
      for (const prompt of ['', 'Fix the flaky test']) {
        const s = prompt ? named(over, prompt) : summary(over);
        expect(sessionName(s)).toEqual(tuiDisplayNameOf(s));
      }
    }
  });
});

describe('formatting', () => {
  const now = Date.parse('2026-11-24T10:00:00.000Z');
  it('names, ages, costs, tokens, windows and models', () => {
    expect(displayName(summary({ custom_name: 'Mine', agent_name: 'Theirs' }))).toBe('Mine');
    expect(displayName(summary({ agent_name: 'Theirs' }))).toBe('Theirs');
    expect(displayName(summary())).toBe('parser');
    expect(displayName(summary({ short_name: '', session_id: '0123456789' }))).toBe('01234567');
    expect(['2026-11-24T09:59:58.000Z', '2026-11-24T09:59:18.000Z', '2026-11-24T09:55:00.000Z', '2026-11-24T07:00:00.000Z', '2026-11-20T10:00:00.000Z', '', 'junk', '0001-01-01T00:00:00Z'].map((t) => age(t, now))).toEqual([
      'now',
      '42s',
      '5m',
      '3h',
      '4d',
      '',
      '',
      '',
    ]);
    // The API's unknown time (Go's zero time, as lazyagent writes it) is shown as unknown.
    expect(localTime('0001-01-01T00:00:00Z')).toBe('');
    expect(ago('0001-01-01T00:00:00Z', now)).toBe('');
    expect(ago('2026-11-24T09:59:59.000Z', now)).toBe('just now');
    expect(ago('2026-11-24T09:55:00.000Z', now)).toBe('5m ago');
    expect([0, 0.004, 1.234, 1234.5].map(cost)).toEqual(['', '<$0.01', '$1.23', '$1,235']);
    expect([999, 1234, 45_600, 2_500_000, 25_000_000].map(tokens)).toEqual(['999', '1.2k', '46k', '2.50M', '25.0M']);
    expect([30, 60, 90, 1440, 1500].map(windowLabel)).toEqual(['30m', '1h', '1h 30m', '1d', '1d 1h']);
    expect(shortModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5');
    expect(shortModel('gpt-5.2-codex')).toBe('gpt-5.2-codex');
  });

  it('marks estimated costs with ~, and says what a total holds', () => {
    expect(sessionCost({ cost_usd: 2.341, cost_source: 'price-table' })).toBe('~$2.34');
    expect(sessionCost({ cost_usd: 2.341, cost_source: 'agent' })).toBe('$2.34');
    expect(sessionCost({ cost_usd: 0, cost_source: null })).toBe('');
    expect(costTotal([])).toEqual({ usd: 0, estimated: false, unpriced: 0 });
    expect(
      costTotal([
        { cost_usd: 1, cost_source: 'agent' },
        { cost_usd: 2, cost_source: 'price-table' },
        { cost_usd: 0, cost_source: null },
      ]),
    ).toEqual({ usd: 3, estimated: true, unpriced: 1 });
  });

  it('splits search snippets into hits and plain text', () => {
    expect(snippetParts('…the [leap] year [bug]')).toEqual([
      { text: '…the ', hit: false },
      { text: 'leap', hit: true },
      { text: ' year ', hit: false },
      { text: 'bug', hit: true },
    ]);
    expect(snippetParts('plain')).toEqual([{ text: 'plain', hit: false }]);
  });

  it('shapes settings values', () => {
    expect(linesOf(' /tmp/ \n\n scratch\n')).toEqual(['/tmp/', 'scratch']);
    expect(numberOrRaw(' 45 ')).toBe(45);
    expect(numberOrRaw('4.5')).toBe(4.5);
    expect(numberOrRaw('abc')).toBe('abc');
    expect(numberOrRaw('')).toBe('');
  });

  it('title and favicon follow the waiting count', () => {
    expect(titleFor(0)).toBe('agentwatch');
    expect(titleFor(3)).toBe('(3) agentwatch');
    expect(faviconFor(0)).toBe('favicon-0.svg');
    expect(faviconFor(7)).toBe('favicon-7.svg');
    expect(faviconFor(12)).toBe('favicon-9plus.svg');
    expect(faviconSvg('9+')).toContain('>9+</text>');
    expect(faviconSvg('0')).not.toContain('<text');
  });
});

describe('sparkline', () => {
  const now = Date.parse('2026-11-24T10:30:00.000Z');
  it('counts records per minute, oldest first, and scales bars to at least 4 per minute', () => {
    const counts = perMinute(
      {
        recent_tools: [
          { name: 'Read', timestamp: '2026-11-24T10:29:30.000Z' },
          { name: 'Edit', timestamp: '2026-11-24T10:29:10.000Z' },
          { name: 'Bash', timestamp: '2026-11-24T10:20:00.000Z' },
          { name: 'Old', timestamp: '2026-11-24T09:00:00.000Z' },
          { name: 'Future', timestamp: '2026-11-24T11:00:00.000Z' },
          { name: 'Unknown', timestamp: '0001-01-01T00:00:00Z' },
        ],
        recent_messages: [{ role: 'user', text: 'hi', timestamp: '2026-11-24T10:28:00.000Z' }],
        last_activity: '2026-11-24T10:29:30.000Z',
      },
      now,
      5,
    );
    expect(counts).toEqual([0, 0, 1, 0, 2]);
    expect(barHeights([0, 1, 2, 8])).toEqual([0, 0.125, 0.25, 1]);
    expect(barHeights([0, 1])[1]).toBe(0.25);
  });
});

describe('limits view', () => {
  const w = (over: Partial<{ used_percent: number; elapsed_percent: number; pace: 'on track' | 'overutilizing' | 'underutilizing' | null; resets_at: string | null }>) => ({
    label: '5-hour',
    used_percent: 40,
    elapsed_percent: 40,
    expected_percent: 40,
    resets_at: '2026-11-24T12:00:00.000Z',
    pace: 'on track' as const,
    ...over,
  });
  it('says pace, reset and severity as the CLI does', () => {
    expect(paceText(w({}))).toBe('on track 1.00x');
    expect(paceText(w({ pace: null, elapsed_percent: 0.5 }))).toBe('–');
    expect(windowSeverity(w({ used_percent: 95 }))).toBe('danger');
    expect(windowSeverity(w({ used_percent: 80, elapsed_percent: 78 }))).toBe('warn');
    expect(windowSeverity(w({ used_percent: 10, pace: 'underutilizing' }))).toBe('ok');
    // The Detailed view's Used bar: by used percent alone, as the CLI's --detailed.
    expect([38, 50, 51, 71, 75, 90, 91].map((used_percent) => usedTone(w({ used_percent, pace: 'overutilizing' })))).toEqual(['green', 'green', 'blue', 'blue', 'blue', 'orange', 'red']);
    expect(resetsText(w({}), Date.parse('2026-11-24T09:30:00.000Z'))).toBe('in 2h 30m');
    expect(resetsText(w({ resets_at: null }), 0)).toBe('not started');
    const split = splitRows({
      generated_at: '2026-11-24T10:00:00.000Z',
      rows: [
        { row: 'Claude', agent: 'claude', status: 'ok', windows: [w({})] },
        { row: 'Grok', agent: 'grok', status: 'skipped', windows: [] },
        { row: 'Codex', agent: 'codex', status: 'failed', error: 'codex: 401', windows: [] },
      ],
    });
    expect(split.shown.map((row) => row.row)).toEqual(['Claude', 'Codex']);
    expect(split.skipped.map((row) => row.row)).toEqual(['Grok']);
  });
});

describe('browser notifications: waiting episodes', () => {
  const step = (state: WaitState, sessions: WaitingInput[], now: number) => trackWaiting(state, sessions, now, 30_000);
  it('announces a session once when it has waited the delay, again only after a new episode', () => {
    const w = (waiting: boolean, lastActivity = 1_000): WaitingInput => ({ id: 'a', waiting, lastActivity });
    let r = step(NO_WAITING, [w(true)], 5_000);
    expect(r.due).toEqual([]);
    r = step(r.state, [w(true)], 30_999);
    expect(r.due).toEqual([]);
    r = step(r.state, [w(true)], 31_000);
    expect(r.due).toEqual(['a']);
    r = step(r.state, [w(true)], 90_000);
    expect(r.due).toEqual([]);
    // Back to work, then waiting again: a new episode from its new last activity.
    r = step(r.state, [w(false)], 100_000);
    r = step(r.state, [w(true, 110_000)], 111_000);
    expect(r.due).toEqual([]);
    r = step(r.state, [w(true, 110_000)], 140_000);
    expect(r.due).toEqual(['a']);
  });

  it('passes over a session already past the delay at first sight; an unknown last activity starts the episode now', () => {
    let r = step(NO_WAITING, [{ id: 'old', waiting: true, lastActivity: 0 }, { id: 'new', waiting: true, lastActivity: Number.NaN }], 600_000);
    expect(r.due).toEqual([]);
    r = step(r.state, [{ id: 'old', waiting: true, lastActivity: 0 }, { id: 'new', waiting: true, lastActivity: Number.NaN }], 630_000);
    expect(r.due).toEqual(['new']);
  });
});

describe('saves of one setting, in order (latestOnly)', () => {
  /** A save whose answers the test gives by hand, in the order it chooses. */
  const manual = () => {
    const calls: { value: number; answer: (ok: boolean) => void }[] = [];
    const save = (value: number): Promise<number> =>
      new Promise((resolve, reject) => calls.push({ value, answer: (ok) => (ok ? resolve(value) : reject(new Error(`refused ${value}`))) }));
    return { calls, save };
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('sends one save at a time; values asked meanwhile coalesce into the latest, sent once the first is answered', async () => {
    const { calls, save } = manual();
    const settled: number[] = [];
    const saves = latestOnly(save, { settled: (answer) => settled.push(answer), failed: () => settled.push(-1) });
    // Twelve quick steps from 30: the first goes out, the rest wait; only the last of them is kept.
    for (let minutes = 40; minutes <= 150; minutes += 10) saves.ask(minutes);
    expect(calls.map((call) => call.value)).toEqual([40]);
    expect(saves.busy()).toBe(true);
    calls[0]?.answer(true);
    await flush();
    expect(calls.map((call) => call.value)).toEqual([40, 150]);
    expect(settled).toEqual([]);
    calls[1]?.answer(true);
    await flush();
    // The last value asked is the last one saved, and only then is it settled.
    expect(settled).toEqual([150]);
    expect(saves.busy()).toBe(false);
    // Idle again: the next value goes out at once.
    saves.ask(160);
    expect(calls.map((call) => call.value)).toEqual([40, 150, 160]);
  });

  it('a failed save drops the waiting value and reports the error; the next value is sent afresh', async () => {
    const { calls, save } = manual();
    const failed: string[] = [];
    const settled: number[] = [];
    const saves = latestOnly(save, { settled: (answer) => settled.push(answer), failed: (error) => failed.push((error as Error).message) });
    saves.ask(40);
    saves.ask(50);
    calls[0]?.answer(false);
    await flush();
    expect(failed).toEqual(['refused 40']);
    expect(calls.map((call) => call.value)).toEqual([40]);
    expect(saves.busy()).toBe(false);
    saves.ask(60);
    calls[1]?.answer(true);
    await flush();
    expect(calls.map((call) => call.value)).toEqual([40, 60]);
    expect(settled).toEqual([60]);
  });
});

describe('detail loader', () => {
  it('asks again when the summary changed while a detail was on its way', async () => {
    const entry = {
      summaryJson: 'v1',
      detailOf: '',
      detail: undefined as SessionDetail | undefined,
      get detailStale() {
        return this.detailOf !== this.summaryJson;
      },
    };
    const sessions = { get: (id: string) => (id === 's-1' ? entry : undefined) };
    const answers: ((detail: unknown) => void)[] = [];
    const api = { get: <T>() => new Promise<T>((resolve) => answers.push(resolve as (detail: unknown) => void)) };
    const loader = createDetailLoader(api, sessions, { minGapMs: 0 });
    loader.request('s-1');
    // A patch arrives while the first answer is on its way; the card asks, and is dropped.
    entry.summaryJson = 'v2';
    loader.request('s-1');
    expect(answers).toHaveLength(1);
    answers[0]?.({ recent_messages: ['old'] });
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]?.({ recent_messages: ['new'] });
    await vi.waitFor(() => expect(entry.detailOf).toBe('v2'));
    expect(entry.detail).toEqual({ recent_messages: ['new'] });
    loader.stop();
  });
});
