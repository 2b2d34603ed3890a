import { AGENT_NAME_WIDTH } from './agent-glyph.js';

/**
 * Which columns the session list shows at a width, and how wide each is. Pure. The list starts
 * from what every row needs (agent, activity, name, age) and adds columns in order of use as the
 * width allows, so a wide terminal fills with information instead of blank cells; what is left
 * goes to the name (and some to the project).
 */
type ColumnId = 'agent' | 'activity' | 'name' | 'project' | 'model' | 'cost' | 'age' | 'spark';

export interface Column {
  readonly id: ColumnId;
  readonly width: number;
  readonly header: string;
  readonly align: 'left' | 'right';
}

export interface ColumnPlan {
  readonly columns: readonly Column[];
  /** The agent column holds names ("codex") rather than one-cell glyphs. */
  readonly agentNames: boolean;
  /** Minutes of history in the sparkline (0 when the column is absent). */
  readonly sparkMinutes: number;
}

/** Cells before the first column: the selection marker. */
export const MARKER_WIDTH = 1;
/** Spinner, space, then the widest activity ("waiting 14m", "compacting"). */
export const ACTIVITY_WIDTH = 13;
const NAME_MIN = 14;
const NAME_COMFORTABLE = 30;
const PROJECT_WIDTH = 16;
const PROJECT_MAX = 28;
const MODEL_WIDTH = 14;
const COST_WIDTH = 7;
const AGE_WIDTH = 4;

interface Wanted {
  project: boolean;
  spark: number;
  cost: boolean;
  model: boolean;
  agentNames: boolean;
}

const fixedWidth = (w: Wanted): { cells: number; columns: number } => {
  const widths = [w.agentNames ? AGENT_NAME_WIDTH : 1, ACTIVITY_WIDTH, AGE_WIDTH];
  if (w.project) widths.push(PROJECT_WIDTH);
  if (w.spark > 0) widths.push(w.spark);
  if (w.cost) widths.push(COST_WIDTH);
  if (w.model) widths.push(MODEL_WIDTH);
  // +1 for the name column itself.
  return { cells: widths.reduce((a, b) => a + b, 0), columns: widths.length + 1 };
};

/** Cells a plan needs besides the name: the marker, the fixed columns and one space between columns. */
const usedBy = (w: Wanted): number => {
  const { cells, columns } = fixedWidth(w);
  return MARKER_WIDTH + cells + (columns - 1);
};

/**
 * Added in this order, each while the name keeps at least `nameMin` cells: the name (the title
 * that tells two sessions of one repository apart) matters more than the later columns.
 */
const UPGRADES: readonly { readonly nameMin: number; readonly apply: (w: Wanted) => Wanted }[] = [
  { nameMin: NAME_MIN, apply: (w) => ({ ...w, project: true }) },
  { nameMin: NAME_MIN, apply: (w) => ({ ...w, spark: 8 }) },
  { nameMin: NAME_MIN, apply: (w) => ({ ...w, cost: true }) },
  { nameMin: 20, apply: (w) => ({ ...w, model: true }) },
  { nameMin: 20, apply: (w) => ({ ...w, agentNames: true }) },
  { nameMin: 24, apply: (w) => ({ ...w, spark: 12 }) },
];

export const planColumns = (width: number): ColumnPlan => {
  let wanted: Wanted = { project: false, spark: 0, cost: false, model: false, agentNames: false };
  for (const upgrade of UPGRADES) {
    const next = upgrade.apply(wanted);
    if (usedBy(next) + upgrade.nameMin <= width) wanted = next;
  }
  const spare = Math.max(1, width - usedBy(wanted));
  // Past a comfortable name, the project takes a third of the rest, up to PROJECT_MAX.
  const projectExtra = wanted.project ? Math.min(PROJECT_MAX - PROJECT_WIDTH, Math.floor(Math.max(0, spare - NAME_COMFORTABLE) / 3)) : 0;
  const name = spare - projectExtra;
  const columns: Column[] = [
    { id: 'agent', width: wanted.agentNames ? AGENT_NAME_WIDTH : 1, header: wanted.agentNames ? 'AGENT' : '', align: 'left' },
    { id: 'activity', width: ACTIVITY_WIDTH, header: '  ACTIVITY', align: 'left' },
    { id: 'name', width: name, header: 'NAME', align: 'left' },
  ];
  if (wanted.project) columns.push({ id: 'project', width: PROJECT_WIDTH + projectExtra, header: 'PROJECT', align: 'left' });
  if (wanted.model) columns.push({ id: 'model', width: MODEL_WIDTH, header: 'MODEL', align: 'left' });
  if (wanted.cost) columns.push({ id: 'cost', width: COST_WIDTH, header: 'COST', align: 'right' });
  columns.push({ id: 'age', width: AGE_WIDTH, header: 'AGE', align: 'right' });
  // A sparkline glyph leads its header: beside AGE, "AGE 8 MIN" read as one label.
  if (wanted.spark > 0) columns.push({ id: 'spark', width: wanted.spark, header: `▁▅ ${wanted.spark} MIN`, align: 'left' });
  return { columns, agentNames: wanted.agentNames, sparkMinutes: wanted.spark };
};

/** The model as the list shows it: no vendor prefix or date stamp (`claude-sonnet-4-5-20250929` -> `sonnet-4-5`). */
export const shortModel = (model: string): string =>
  model
    .replace(/^.*\//, '')
    .replace(/^claude-/, '')
    .replace(/-\d{8}$/, '');
