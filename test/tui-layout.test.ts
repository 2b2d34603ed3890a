import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SESSIONS } from '../src/sources/agents.js';
import { glyphLegend } from '../src/sinks/tui/agent-glyph.js';
import { KEY_REFERENCE } from '../src/sinks/tui/keys.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { hasTmux, listRows, makeTmux, selectedRow } from './helpers/tmux.js';

/**
 * The list's layout at the widths people use, in a real terminal on --demo: columns
 * added as the width allows, every line within the width, the wheel scrolling the list with the
 * selection kept in view, and the ? overlay (scrolled with the wheel) listing every key and
 * every agent's glyph.
 */
const tmux = makeTmux('tui-layout');
let home: TempHome;
let env: Record<string, string>;

beforeAll(async () => {
  if (!hasTmux) return;
  home = await makeTempHome('agentwatch-tui-layout-');
  const { NO_COLOR: _noColor, ...rest } = home.env;
  env = { ...rest, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
});

afterAll(async () => {
  if (!hasTmux) return;
  tmux.kill();
  await home.cleanup();
});

const headerOf = (screen: string): string => screen.split('\n').find((line) => /^│ .*ACTIVITY +NAME/.test(line)) ?? '';
/** The demo sessions the list shows (a sub-agent is folded into its parent). */
const SHOWN = DEMO_SESSIONS.filter((s) => s.meta.isSidechain !== true).length;
const demoRows = (screen: string): boolean => listRows(screen).length >= 5 && new RegExp(`Sessions \\d+/${SHOWN}`).test(screen);

describe.skipIf(!hasTmux)('the list at 80, 120 and 200 columns (tmux, --demo)', () => {
  it.each([
    // width, headers shown, headers not shown, a row cell only the wide layout has
    [80, ['ACTIVITY', 'NAME', 'PROJECT', 'COST', 'AGE', 'MIN'], ['AGENT', 'MODEL'], undefined],
    [120, ['ACTIVITY', 'NAME', 'PROJECT', 'COST', 'AGE', 'MIN'], ['AGENT', 'MODEL'], undefined],
    [200, ['AGENT', 'ACTIVITY', 'NAME', 'PROJECT', 'MODEL', 'COST', 'AGE', 'MIN'], [], /│[ ›]kimi +\S/],
  ] as const)('%i columns: the columns that fit, every line within the width', async (width, shown, hidden, wideCell) => {
    const name = `w${width}`;
    tmux.launch(name, ['--demo'], env, { width, height: 24 });
    const screen = await tmux.waitFor(name, demoRows, 'the demo rows', 30_000);
    const header = headerOf(screen);
    for (const column of shown) expect(header).toContain(column);
    for (const column of hidden) expect(header).not.toContain(column);
    expect(screen.split('\n').every((line) => [...line].length <= width)).toBe(true);
    expect(screen).toContain('┌─ Sessions');
    // The detail panel sits beside the list when there is room, below it when not.
    expect(screen).toContain(width >= 120 ? '┬─ Detail' : '├─ Detail');
    if (wideCell) expect(listRows(screen).some((row) => wideCell.test(row))).toBe(true);
    else expect(listRows(screen).every((row) => /^│[ ›]\S /.test(row))).toBe(true);
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });

  it('the wheel scrolls the list (the selection stays in view) and the ? overlay, which lists every key and agent', async () => {
    const name = 'wheel';
    tmux.launch(name, ['--demo'], env, { width: 80, height: 24 });
    let screen = await tmux.waitFor(name, demoRows, 'the demo rows', 30_000);
    const visible = listRows(screen).length;
    expect(visible).toBeLessThan(SHOWN);
    expect(screen).toMatch(new RegExp(`Sessions 1/${SHOWN}`));

    // Wheel down over the list: the view moves 3 rows (clamped to the last full page), so the
    // selected first session leaves the view and the selection lands on the first row in view.
    // The page height is read from the same screen: a status line shown meanwhile (the demo
    // notice) takes a row from the list and moves the clamp.
    const scrolledTo = (s: string): number => Math.min(3, SHOWN - listRows(s).length) + 1;
    tmux.mouse(name, 65, 30, 6);
    screen = await tmux.waitFor(name, (s) => s.includes(`Sessions ${scrolledTo(s)}/${SHOWN}`) && listRows(s)[0] === selectedRow(s), 'the list scrolled down');
    // Wheel up: the view returns to the top; the selection stays on its session, now lower down.
    tmux.mouse(name, 64, 30, 6);
    screen = await tmux.waitFor(
      name,
      (s) => {
        const position = new RegExp(`Sessions (\\d+)/${SHOWN}`).exec(s)?.[1];
        const at = listRows(s).indexOf(selectedRow(s));
        return position !== undefined && at > 0 && at === Number(position) - 1;
      },
      'the list scrolled back up',
    );

    // ?: the overlay; the wheel scrolls it to its last line, every key and glyph on the way.
    tmux.keys(name, '?');
    screen = await tmux.waitText(name, 'Help: keys, agents, warnings');
    let seen = screen;
    for (let step = 0; step < 40; step++) {
      const lines = /lines (\d+)-(\d+) of (\d+)/.exec(screen);
      expect(lines).not.toBeNull();
      if (lines?.[2] === lines?.[3]) break;
      const before = lines?.[0] ?? '';
      tmux.mouse(name, 65, 40, 12);
      screen = await tmux.waitFor(name, (s) => !s.includes(before), 'the overlay scrolled');
      seen += `\n${screen}`;
    }
    expect(seen).toMatch(/lines \d+-(\d+) of \1/);
    for (const section of KEY_REFERENCE) {
      expect(seen).toContain(section.title);
      for (const [keys] of section.keys) expect(seen, keys).toContain(keys);
    }
    for (const [glyph, , label] of glyphLegend()) expect(seen).toMatch(new RegExp(`${glyph.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} +${label.replace(/[()]/g, '\\$&')}`));
    tmux.keys(name, 'Escape');
    await tmux.waitFor(name, (s) => !s.includes('Help: keys'), 'the overlay closed');
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });

  it.each([
    [100, 30],
    [60, 20],
  ] as const)('the ? overlay at %ix%i: every key stands apart from what it does (an aligned gap or a line of its own)', async (width, height) => {
    const name = `help${width}`;
    tmux.launch(name, ['--demo'], env, { width, height });
    await tmux.waitFor(name, demoRows, 'the demo rows', 30_000);
    tmux.keys(name, '?');
    /** The overlay's rows between its side borders, less the one-cell margin, trailing blanks dropped. */
    const body = (s: string): string[] => {
      const lines = s.split('\n').map((line) => [...line]);
      const top = lines.findIndex((cells) => cells.join('').includes('┌─ Help'));
      const left = lines[top]?.join('').indexOf('┌─ Help') ?? -1;
      const right = lines[top]?.indexOf('┐', left) ?? -1;
      const bottom = lines.findIndex((cells, i) => i > top && cells[left] === '└');
      expect(top >= 0 && bottom > top && right > left).toBe(true);
      return lines.slice(top + 1, bottom - 1).map((cells) => cells.slice(left + 2, right).join('').trimEnd());
    };
    let screen = await tmux.waitText(name, 'Help: keys, agents, warnings');
    const inside = body(screen);
    for (let step = 0; step < 60; step++) {
      const lines = /lines (\d+)-(\d+) of (\d+)/.exec(screen);
      if (!lines || lines[2] === lines[3]) break;
      const before = lines[0];
      tmux.keys(name, 'PageDown');
      screen = await tmux.waitFor(name, (s) => !s.includes(before), 'the overlay scrolled');
      // PageDown moves ten rows: the rows past the ones already seen.
      const now = /lines (\d+)-(\d+)/.exec(screen);
      inside.push(...body(screen).slice(Math.max(0, Number(lines[2]) - Number(now?.[1] ?? 0) + 1)));
    }
    for (const section of KEY_REFERENCE) {
      for (const [keys, what] of section.keys) {
        const first = what.split(' ')[0] ?? '';
        const at = inside.findIndex((line) => line === `  ${keys}` || line.startsWith(`  ${keys} `));
        expect(at, keys).toBeGreaterThanOrEqual(0);
        const rest = (inside[at] ?? '').slice(keys.length + 2);
        if (rest === '') expect(inside[at + 1], keys).toMatch(new RegExp(`^ {4,}${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
        else expect(rest, keys).toMatch(new RegExp(`^ {2,}${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      }
    }
    expect(inside.some((line) => /^ {2}recent activity {2,}by the last/.test(line))).toBe(true);
    tmux.keys(name, 'Escape');
    await tmux.waitFor(name, (s) => !s.includes('Help: keys'), 'the overlay closed');
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });

  it.each([
    [30, 8],
    [20, 5],
  ] as const)('a %ix%i terminal is told the size it needs, whole', async (width, height) => {
    const name = `small${width}`;
    tmux.launch(name, ['--demo'], env, { width, height });
    const screen = await tmux.waitFor(name, (s) => s.includes('40x12'), 'the notice');
    expect(screen.replace(/\s+/g, ' ')).toContain(`(${width}x${height}); need 40x12. q quits.`);
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });

  it('the limits window at 80 columns: sized to its table, no run of blank rows, the Detailed notes wrapped once, one window order', async () => {
    const name = 'limits';
    tmux.launch(name, ['--demo'], env, { width: 80, height: 30 });
    await tmux.waitFor(name, demoRows, 'the demo rows', 30_000);
    tmux.keys(name, 'l');
    let screen = await tmux.waitText(name, 'Sample data (--demo)');
    /** The modal's inside, one string per row between its side borders. */
    const inside = (s: string): string[] => {
      const lines = s.split('\n').map((line) => [...line]);
      const top = lines.findIndex((cells) => cells.join('').includes('┌─ Limits'));
      const left = lines[top]?.join('').indexOf('┌─ Limits') ?? -1;
      const right = lines[top]?.indexOf('┐', left) ?? -1;
      const bottom = lines.findIndex((cells, i) => i > top && cells[left] === '└');
      expect(top >= 0 && bottom > top && right > left).toBe(true);
      return lines.slice(top + 1, bottom).map((cells) => cells.slice(left + 1, right).join(''));
    };
    const summary = inside(screen);
    // The table spans the modal less a one-cell margin each side.
    const tableTop = summary.find((row) => row.trimStart().startsWith('┌')) ?? '';
    expect(tableTop).toMatch(/^ ┌[─┬]+┐ $/);
    // Sized to its content: the last row is the key line, and never two blank rows in a row.
    expect(summary.at(-1)).toContain('r re-reads');
    expect(summary.some((row, i) => row.trim() === '' && summary[i + 1]?.trim() === '')).toBe(false);

    tmux.keys(name, 'Tab');
    screen = await tmux.waitFor(name, (s) => s.includes('Pace'), 'the detailed tab');
    const detailed = inside(screen);
    // Each note is one line (the text is wrapped to the modal once, not wrapped again inside it).
    expect(detailed.filter((row) => row.includes('Note: Sample data (--demo): generated, not your usage.')).length).toBeGreaterThan(0);
    expect(detailed.some((row) => /^ +(generated|not your usage)/.test(row))).toBe(false);
    // One window order for every agent: the shorter window first.
    const windows = detailed.map((row) => row.trim()).filter((row) => /^(5-hour|7-day|weekly)$/.test(row));
    expect(windows.slice(0, 2)).toEqual(['5-hour', '7-day']);
    tmux.keys(name, 'Escape');
    await tmux.waitFor(name, (s) => !s.includes('┌─ Limits'), 'the modal closed');
    tmux.keys(name, 'q');
    await tmux.waitText(name, 'EXITED 0');
  });
});
