import { ACTIVITIES } from '../../core/activity.js';
import { glyphLegend } from './agent-glyph.js';
import { KEY_REFERENCE } from './keys.js';
import { seg, type Line, type Segment } from './line.js';
import { SORT_LABEL, SORT_MODES, type SortMode } from './order.js';
import { padEndTo, wrapText } from './text.js';

const KEY_COLUMN = 17;

/** A described line wrapped under its own column (the key or glyph stays on the first line). */
const described = (lead: Segment, leadWidth: number, text: string, width: number, style: Segment['style'] = 'text'): Line[] =>
  wrapText(text, Math.max(10, width - leadWidth)).map((part, i) => [i === 0 ? { ...lead, text: padEndTo(lead.text, leadWidth) } : seg(' '.repeat(leadWidth)), seg(part, style)]);

/** Items laid out in as many columns of `cell` cells as fit `width`. */
const grid = (items: readonly Segment[][], cell: number, width: number): Line[] => {
  const perLine = Math.max(1, Math.floor(width / cell));
  const lines: Line[] = [];
  for (let i = 0; i < items.length; i += perLine) {
    lines.push(items.slice(i, i + perLine).flatMap((item) => [...item, seg(' '.repeat(Math.max(1, cell - item.reduce((n, s) => n + s.text.length, 0))))]));
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
    lines.push([seg(text, 'panelTitle')]);
  };
  for (const section of KEY_REFERENCE) {
    heading(section.title);
    for (const [keys, what] of section.keys) lines.push(...described(seg(`  ${keys}`, 'key'), KEY_COLUMN, what, width));
  }
  heading('Agents (the list shows the glyph when narrow, the name when wide)');
  lines.push(...grid(glyphLegend().map(([glyph, agent, label]) => [seg(`  ${glyph} `, `agent.${agent}`), seg(label, 'text')]), 26, width));
  heading('Activities');
  lines.push(...grid(ACTIVITIES.map((activity) => [seg(`  ${activity}`, `act.${activity}`)]), 14, width));
  heading(`Sort (S): now ${SORT_LABEL[input.sort]}`);
  const why: Readonly<Record<SortMode, string>> = {
    recent: 'sessions that work or wait, newest first, then idle ones; a working session keeps its place until it goes idle',
    waiting: 'sessions waiting for you first, then working ones (they keep their places), then idle ones',
    project: 'by project folder, then newest started first; rows never move while they work',
  };
  for (const mode of SORT_MODES) lines.push(...described(seg(`  ${SORT_LABEL[mode]}`, mode === input.sort ? 'key' : 'label'), KEY_COLUMN, why[mode], width));
  heading(`Warnings (${input.warnings.length})`);
  if (input.warnings.length === 0) lines.push([seg('  none', 'muted')]);
  for (const warning of input.warnings) lines.push(...described(seg('  !', 'error'), 4, warning, width));
  lines.push([]);
  const diagnostics =
    input.diagnostics > 0
      ? `${input.diagnostics} diagnostic${input.diagnostics === 1 ? '' : 's'} so far (junk lines, unknown records, unreadable files): agentwatch doctor lists each with its file and line.`
      : 'No diagnostics so far. agentwatch doctor shows where each agent was looked for and what was found.';
  lines.push(...described(seg('  '), 2, diagnostics, width, 'muted'));
  return lines;
};
