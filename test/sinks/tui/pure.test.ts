import { describe, expect, it } from 'vitest';
import { diffFrames } from '../../../src/sinks/tui/diff.js';
import { encodeLine } from '../../../src/sinks/tui/encode.js';
import { activityText } from '../../../src/core/activity.js';
import { activityPerMinute, formatAge, formatCost, formatTokens, sparkline } from '../../../src/sinks/tui/format.js';
import { fitLine, overlay, seg, sliceLine, toPlain } from '../../../src/sinks/tui/line.js';
import { computeLayout, modalRect } from '../../../src/sinks/tui/layout.js';
import { displayWidth, ellipsize, ellipsizeStart, sanitize, wrapText } from '../../../src/sinks/tui/text.js';
import { BASE_STYLES, THEMES } from '../../../src/sinks/tui/theme.js';
import { ACTIVITIES } from '../../../src/core/activity.js';
import { NOW } from './scene.js';

describe('cost display', () => {
  it.each([
    [1.234, 1000, '$1.23'],
    [0.05, 10, '$0.05'],
    [0.005, 10, '<$0.01'],
    [0.0011, 10, '<$0.01'],
    [0.001, 10, undefined],
    [0.0005, 10, undefined],
    [3, 0, undefined],
    [0, 100, undefined],
  ])('cost %d with %i tokens shows %s', (cost, tokens, expected) => {
    expect(formatCost(cost, tokens)).toBe(expected);
  });
});

describe('cost marks', () => {
  it.each([
    [1.234, 1000, 'price-table', '~$1.23'],
    [0.005, 10, 'price-table', '~<$0.01'],
    [123.4, 10, 'price-table', '~$123'],
    [123.4, 10, 'agent', '$123.40'],
    [0, 10, null, '-'],
    [0, 0, null, undefined],
  ] as const)('cost %d with %i tokens from %s shows %s', (cost, tokens, source, expected) => {
    expect(formatCost(cost, tokens, source)).toBe(expected);
  });
});

describe('formatters', () => {
  it('a waiting session says for how long; other activities read as they are', () => {
    const since = new Date(NOW - 14 * 60_000).toISOString();
    expect(activityText({ activity: 'waiting', waiting_since: since }, NOW)).toBe('waiting 14m');
    expect(activityText({ activity: 'waiting', waiting_since: '' }, NOW)).toBe('waiting');
    expect(activityText({ activity: 'idle', waiting_since: '' }, NOW)).toBe('idle');
  });

  it.each([
    [0, ''],
    [NOW - 2000, 'now'],
    [NOW - 45_000, '45s'],
    [NOW - 12 * 60_000, '12m'],
    [NOW - 3 * 3_600_000, '3h'],
    [NOW - 72 * 3_600_000, '3d'],
  ])('age of %i is %j', (at, expected) => expect(formatAge(at, NOW)).toBe(expected));

  it.each([
    [950, '950'],
    [1234, '1.2k'],
    [45_600, '46k'],
    [4_500_000, '4.5M'],
    [45_000_000, '45M'],
  ])('tokens %i read %s', (n, expected) => expect(formatTokens(n)).toBe(expected));

  it('buckets records per minute and draws bars relative to the busiest minute', () => {
    const at = (minutesAgo: number) => NOW - minutesAgo * 60_000 - 1000;
    const s = {
      recentTools: [0, 0, 0, 0, 1, 3].map((m) => ({ name: 'Read', at: at(m), done: true })),
      recentMessages: [{ role: 'user' as const, text: 'x', at: at(9) }, { role: 'user' as const, text: 'x', at: at(30) }],
      lastActivityAt: at(0),
    };
    const counts = activityPerMinute(s, NOW, 10);
    expect(counts).toEqual([1, 0, 0, 0, 0, 0, 1, 0, 1, 4]);
    expect(sparkline(counts)).toBe('▂     ▂ ▂█');
    expect(sparkline([0, 0])).toBe('  ');
  });
});

describe('text and lines', () => {
  it('measures wide and zero-width characters', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('π')).toBe(1);
  });

  it('cuts with ellipses from either end and strips control characters', () => {
    expect(ellipsize('acme-api-server', 8)).toBe('acme-ap…');
    expect(ellipsize('日本語のテキスト', 5)).toBe('日本…');
    expect(ellipsizeStart('/home/dev/acme/api', 10)).toBe('…/acme/api');
    expect(sanitize('a\nb\u001b[31mc\u0007')).toBe('a b[31mc');
  });

  it('fits, slices and overlays styled runs by cells, never splitting a wide character', () => {
    const line = [seg('ab', 'muted'), seg('日本', 'value'), seg('cd')];
    expect(toPlain(fitLine(line, 5))).toBe('ab日 ');
    expect(toPlain(sliceLine(line, 3, 7))).toBe(' 本c');
    expect(toPlain(overlay([seg('0123456789')], 3, [seg('XY')]))).toBe('012XY56789');
    expect(toPlain(fitLine([seg('x')], 4))).toBe('x   ');
  });
});

describe('themes and encoding', () => {
  it('every role has a style in every theme, and light differs from dark', () => {
    const roles = [...BASE_STYLES, ...ACTIVITIES.map((a) => `act.${a}` as const)];
    for (const theme of Object.values(THEMES)) for (const role of roles) expect(theme.styles[role], `${theme.name} ${role}`).toBeDefined();
    expect(THEMES.light.styles['act.waiting']).not.toEqual(THEMES.dark.styles['act.waiting']);
  });

  it('encodes roles as SGR from the theme; the plain theme has no colors at all', () => {
    const line = [seg('wait', 'act.waiting'), { text: 'sel', style: 'muted' as const, selected: true }, seg('x')];
    expect(encodeLine(line, THEMES.dark)).toBe('\u001b[1;38;5;214mwait\u001b[0m\u001b[38;5;244;48;5;238msel\u001b[0mx');
    // eslint-disable-next-line no-control-regex -- looking for color SGR parameters
    expect(encodeLine(line, THEMES.plain)).not.toMatch(/\u001b\[[^m]*(38|48);/);
    expect(encodeLine(line, THEMES.plain)).toBe('\u001b[1mwait\u001b[0m\u001b[7msel\u001b[0mx');
  });
});

describe('layout and diff', () => {
  it('stacks the bordered panels below 120 columns and puts them side by side above', () => {
    // 80x24: title, top border, 10 list rows, the detail's rule, 9 detail rows, bottom border, help.
    expect(computeLayout({ width: 80, height: 24 })).toMatchObject({ split: 'rows', list: { x: 1, y: 2, width: 78, height: 10 }, detail: { x: 1, y: 13, width: 78, height: 9 } });
    // Side by side the detail panel keeps a readable width and the list takes the rest.
    expect(computeLayout({ width: 140, height: 40 })).toMatchObject({ split: 'columns', list: { x: 1, width: 87, height: 36 }, detail: { x: 89, width: 50 } });
    expect(computeLayout({ width: 200, height: 50 })).toMatchObject({ split: 'columns', list: { width: 125 }, detail: { x: 127, width: 72 } });
  });

  it('sizes a window to its content, centered and inside the screen', () => {
    expect(modalRect({ width: 80, height: 24 }, { width: 30, height: 8 })).toEqual({ x: 23, y: 8, width: 34, height: 8 });
    expect(modalRect({ width: 80, height: 24 }, { width: 300, height: 80 })).toEqual({ x: 2, y: 1, width: 76, height: 22 });
  });

  it('redraws only the rows that changed, everything without a previous frame', () => {
    expect(diffFrames(['a', 'b', 'c'], ['a', 'B', 'c'])).toEqual([{ row: 1, text: 'B' }]);
    expect(diffFrames(undefined, ['a', 'b'])).toEqual([{ row: 0, text: 'a' }, { row: 1, text: 'b' }]);
    expect(diffFrames(['a'], ['a'])).toEqual([]);
  });
});

describe('wrapText', () => {
  it.each([
    ['short', 10, ['short']],
    ['one two three four', 9, ['one two', 'three', 'four']],
    ['  Source: a b c d e', 12, ['  Source: a', '  b c d e']],
    ['abcdefghij', 4, ['abcd', 'efgh', 'ij']],
  ])('%j at %i cells', (text, width, expected) => expect(wrapText(text, width)).toEqual(expected));
});
