import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KEY_REFERENCE } from '../../../src/sinks/tui/keys.js';
import { toPlain } from '../../../src/sinks/tui/line.js';
import { MIN_SIZE } from '../../../src/sinks/tui/layout.js';
import { SORT_LABEL, SORT_MODES } from '../../../src/sinks/tui/order.js';
import { renderHelp, renderStatus } from '../../../src/sinks/tui/render-chrome.js';
import { helpLines } from '../../../src/sinks/tui/render-help.js';
import { tooSmallLines } from '../../../src/sinks/tui/render.js';
import { initialView, type ViewState } from '../../../src/sinks/tui/state.js';
import { displayWidth } from '../../../src/sinks/tui/text.js';

/**
 * The `?` overlay at every width the TUI draws it (the box's inside is 32 cells at the smallest
 * terminal, 40 columns, up to 92 from 100 columns on), and the notice below the smallest terminal.
 */
const HELP_WIDTHS = Array.from({ length: 92 - 32 + 1 }, (_, i) => 32 + i);

/** Every described entry of the overlay: the keys (or an order's name) as drawn, then its description. */
const ENTRIES: readonly (readonly [lead: string, what: string])[] = [
  ...KEY_REFERENCE.flatMap((section) => section.keys.map(([keys, what]) => [`  ${keys}`, what] as const)),
  ...SORT_MODES.map((mode) => [`  ${SORT_LABEL[mode]}`, ''] as const),
];

describe('the ? overlay', () => {
  it.each(HELP_WIDTHS)('at %i cells: every line fits, and keys and descriptions never run together', (width) => {
    const lines = helpLines({ sort: 'recent', warnings: ['config.json: unknown key "window_minuts" (a long warning that has to wrap at narrow widths)'], diagnostics: 3 }, width).map(toPlain);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    const columns = new Set<number>();
    for (const [lead, what] of ENTRIES) {
      const at = lines.findIndex((line) => line === lead || line.startsWith(`${lead} `));
      expect(at, lead).toBeGreaterThanOrEqual(0);
      const rest = (lines[at] ?? '').slice(lead.length);
      if (rest.trim() === '') {
        // Stacked: the description starts on the next line, indented.
        expect(lines[at + 1], lead).toMatch(/^ {2,}\S/);
        if (what) expect(lines[at + 1]?.trimStart().startsWith(what.split(' ')[0] ?? ''), lead).toBe(true);
      } else {
        // Beside the keys: an aligned gap of two cells or more, then the description.
        expect(rest, `${lead} at ${width}`).toMatch(/^ {2,}\S/);
        if (what) expect(rest.trimStart().startsWith(what.split(' ')[0] ?? ''), lead).toBe(true);
        columns.add(lead.length + rest.length - rest.trimStart().length);
      }
    }
    // One description column for every key and order beside them.
    expect(columns.size).toBeLessThanOrEqual(1);
  });

  it('at the 100-column terminal the limits keys and the orders read apart', () => {
    const lines = helpLines({ sort: 'recent', warnings: [], diagnostics: 0 }, 92).map(toPlain);
    expect(lines.find((line) => line.includes('1 2 h'))).toMatch(/1 2 h {2,}Summary \/ Detailed tab/);
    expect(lines.find((line) => line.startsWith('  recent activity'))).toMatch(/^ {2}recent activity {2,}by the last activity/);
  });
});

describe('docs/tui.md and the ? overlay list the same keys', () => {
  const NAMED = /^(tab|shift-tab|pgup|pgdn|home|end|esc|enter|ctrl-c|ctrl-u|click|wheel)$/i;
  const doc = readFileSync(new URL('../../../docs/tui.md', import.meta.url), 'utf8');
  const table = doc.slice(doc.indexOf('## Keys and mouse'), doc.indexOf('## Colors and terminals'));
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Key') && !line.startsWith('|---'));
  /** A one-character key keeps its case (s and S differ); a named key does not (Tab, tab). */
  const norm = (key: string): string => (key.length === 1 ? key : key.toLowerCase());
  const documented = new Set(
    rows.flatMap((row) => {
      const [first = ''] = row.slice(2).split(' | ');
      const bare = first.split(/\s+/).filter((word) => NAMED.test(word));
      const quoted = [...row.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '').filter((key) => [...key].length === 1 || NAMED.test(key));
      return [...bare, ...quoted].map(norm);
    }),
  );
  const listed = new Set(KEY_REFERENCE.flatMap((section) => section.keys.flatMap(([keys]) => keys.split(/\s+/).filter(Boolean))).map(norm));

  it('every key the overlay lists is in the docs', () => {
    for (const key of listed) expect(documented, key).toContain(key);
  });

  it('every key the docs list is in the overlay', () => {
    for (const key of documented) expect(listed, key).toContain(key);
  });
});

describe('a terminal smaller than the TUI needs', () => {
  it.each([
    [39, 11],
    [30, 8],
    [20, 5],
    [12, 3],
    [10, 3],
    [10, 1],
    [5, 2],
  ])('at %ix%i the notice fits and says the size needed', (width, height) => {
    const lines = tooSmallLines({ width, height });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(height);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    // The size needed is there whole, on one line.
    expect(lines.some((line) => line.includes(`${MIN_SIZE.width}x${MIN_SIZE.height}`)), lines.join('|')).toBe(true);
  });

  it('says everything when there is room: which size it is, which it needs, how to quit', () => {
    expect(tooSmallLines({ width: 30, height: 8 }).join(' ')).toBe('Terminal too small (30x8); need 40x12. q quits.');
    expect(tooSmallLines({ width: 20, height: 5 })).toEqual(['Terminal too small', '(20x5); need 40x12.', 'q quits.']);
    expect(tooSmallLines({ width: 10, height: 3 })).toEqual(['Too small:', 'need 40x12']);
  });
});

describe('the help bar and the status line', () => {
  const NOW = 1_000_000;
  const long = 'x'.repeat(40);
  const withNotice: ViewState = { ...initialView(30, ''), notice: { text: `--demo: ${long} is waiting for you (sample notification, not sent)`, tone: 'info', at: NOW } };
  const renaming: ViewState = { ...initialView(30, ''), prompt: { kind: 'rename', text: 'a name typed', sessionId: 's1', label: long } };

  it.each([80, 60, 40])('at %i columns a line that does not fit ends with an ellipsis and fills the width', (width) => {
    const cut = [
      renderHelp(withNotice, NOW, width),
      renderHelp(renaming, NOW, width),
      renderStatus([`config.json: unknown key "${long}"`], 3, width, [`webhook queue in memory: ${long}`]),
    ].map(toPlain);
    for (const line of cut) {
      expect(displayWidth(line), line).toBe(width);
      expect(line.endsWith('…'), line).toBe(true);
    }
  });

  it('a line that fits is padded, not marked', () => {
    const line = toPlain(renderHelp({ ...withNotice, notice: { text: 'Renamed to "x"', tone: 'info', at: NOW } }, NOW, 80));
    expect(line).toBe('Renamed to "x"'.padEnd(80));
  });
});
