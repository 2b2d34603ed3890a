import { ACTIVITIES } from '../../core/activity.js';
import { glyphLegend } from './agent-glyph.js';
import { ESTIMATE_NOTE } from './format.js';
import { KEY_REFERENCE } from './keys.js';
import { seg, type Line, type Segment } from './line.js';
import { SORT_LABEL, SORT_MODES, type SortMode } from './order.js';
import { displayWidth, padEndTo, wrapText } from './text.js';

/** Cells between the longest key list and its description. */
const GAP = 2;
/** Narrower than this beside the keys, a description goes on lines of its own under them. */
const MIN_DESCRIPTION = 20;
/** Where a stacked description starts (under the keys, which are indented two cells). */
const STACKED_INDENT = 6;

/**
 * A key list (or a glyph, or an order's name) and what it does. Beside each other when the
 * description keeps `MIN_DESCRIPTION` cells: the lead padded to `column` (past the longest lead,
 * so at least one blank cell always separates them) and the description wrapped under its own
 * column. Else the lead on a line of its own and the description wrapped under it, indented.
 * Never glued, never cut.
 */
const described = (lead: Segment, column: number, text: string, width: number, style: Segment['style'] = 'text', minDescription = MIN_DESCRIPTION): Line[] => {
  const leadWidth = displayWidth(lead.text);
  if (leadWidth < column && width - column >= minDescription) {
    return wrapText(text, width - column).map((part, i) => [i === 0 ? { ...lead, text: padEndTo(lead.text, column) } : seg(' '.repeat(column)), seg(part, style)]);
  }
  const indent = Math.min(STACKED_INDENT, Math.max(0, width - minDescription));
  return [...(lead.text.trim() === '' ? [] : wrapText(lead.text, width).map((part) => [{ ...lead, text: part }])), ...wrapText(text, width - indent).map((part) => [seg(' '.repeat(indent)), seg(part, style)])];
};

/** Items laid out in as many columns of `cell` cells as fit `width`. */
const grid = (items: readonly Segment[][], cell: number, width: number): Line[] => {
  const perLine = Math.max(1, Math.floor(width / cell));
  const lines: Line[] = [];
  for (let i = 0; i < items.length; i += perLine) {
    const row = items.slice(i, i + perLine);
    lines.push(row.flatMap((item, j) => (j === row.length - 1 ? item : [...item, seg(' '.repeat(Math.max(1, cell - item.reduce((n, s) => n + displayWidth(s.text), 0))))])));
  }
  return lines;
};

export interface HelpInput {
  readonly sort: SortMode;
  /** Warnings written while the TUI runs (config, sources, webhooks), oldest first. */
  readonly warnings: readonly string[];
  readonly diagnostics: number;
}

/** The `?` overlay's lines for a box `width` cells wide inside: keys, legends, sort orders, warnings. */
export const helpLines = (input: HelpInput, width: number): Line[] => {
  const lines: Line[] = [];
  const heading = (text: string): void => {
    if (lines.length > 0) lines.push([]);
    for (const part of wrapText(text, width)) lines.push([seg(part, 'panelTitle')]);
  };
  const sortLead = (mode: SortMode): string => `  ${SORT_LABEL[mode]}`;
  // One key column for the keys and the orders: the longest of them and a gap.
  const column = Math.max(...KEY_REFERENCE.flatMap((section) => section.keys.map(([keys]) => displayWidth(`  ${keys}`))), ...SORT_MODES.map((mode) => displayWidth(sortLead(mode)))) + GAP;
  for (const section of KEY_REFERENCE) {
    heading(section.title);
    for (const [keys, what] of section.keys) lines.push(...described(seg(`  ${keys}`, 'key'), column, what, width));
  }
  heading('Agents (the list shows the glyph when narrow, the name when wide)');
  lines.push(...grid(glyphLegend().map(([glyph, agent, label]) => [seg(`  ${glyph} `, `agent.${agent}`), seg(label, 'text')]), 26, width));
  heading('Cost');
  lines.push(...described(seg('  ~$2.34', 'key'), column, `${ESTIMATE_NOTE}; $2.34 without the mark is what the agent recorded`, width));
  lines.push(...described(seg('  -', 'key'), column, 'no price is known for the model', width));
  heading('Activities');
  lines.push(...grid(ACTIVITIES.map((activity) => [seg(`  ${activity}`, `act.${activity}`)]), 14, width));
  heading(`Sort (S): now ${SORT_LABEL[input.sort]}`);
  const why: Readonly<Record<SortMode, string>> = {
    'needs-you': 'waiting for you, then working, then idle; newest started first in each; a row moves only when its session changes group',
    recent: 'by the last activity, newest first (working sessions move with every record)',
    started: 'newest started first',
    name: 'by name, A to Z',
    cost: 'the most expensive first',
    project: 'by project folder, then newest started first; rows never move while they work',
  };
  for (const mode of SORT_MODES) lines.push(...described(seg(sortLead(mode), mode === input.sort ? 'key' : 'label'), column, why[mode], width));
  heading(`Warnings (${input.warnings.length})`);
  if (input.warnings.length === 0) lines.push([seg('  none', 'muted')]);
  for (const warning of input.warnings) lines.push(...described(seg('  !', 'error'), 4, warning, width, 'text', 8));
  lines.push([]);
  const diagnostics =
    input.diagnostics > 0
      ? `${input.diagnostics} problem${input.diagnostics === 1 ? '' : 's'} reading sessions so far (unreadable files, locked or unknown databases): agentwatch doctor names each and what to do.`
      : 'Nothing needs you so far. agentwatch doctor shows where each agent was looked for, what was found and the lines it skipped.';
  lines.push(...described(seg(''), 2, diagnostics, width, 'muted', 8));
  return lines;
};
