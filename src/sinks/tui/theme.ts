import type { Activity } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import { AGENT_COLOUR } from '../../sources/agents.js';

/**
 * Every color of the TUI lives here, so a theme changes all of them (docs/tui.md). Render
 * code names a role (`StyleName`); a theme maps roles to attributes; `encode.ts` turns them into
 * SGR sequences. No other file holds a color, but for each agent's own, taken from its descriptor.
 */
export type ThemeName = 'dark' | 'light';

/** A 256-color palette index (0-255): portable across xterm, tmux, screen and the Linux console. */
type Color = number;

export interface Style {
  readonly fg?: Color;
  readonly bg?: Color;
  readonly bold?: boolean;
  readonly dim?: boolean;
  readonly inverse?: boolean;
  readonly underline?: boolean;
}

export const BASE_STYLES = [
  'text',
  'muted',
  'title',
  'titleAccent',
  'panelTitle',
  'panelTitleFocus',
  'border',
  'selected',
  'cursor',
  'label',
  'value',
  'spark',
  'spinner',
  'key',
  'help',
  'info',
  'error',
  'prompt',
  'modal',
  'modalBorder',
  'tabActive',
  'tabInactive',
  'header',
  'borderFocus',
  'status',
  'statusWarn',
] as const;

type BaseStyle = (typeof BASE_STYLES)[number];
/** Activity badges get one role each, e.g. `act.waiting`; agent glyphs one per agent, `agent.codex`. */
export type StyleName = BaseStyle | `act.${Activity}` | `agent.${AgentKind}`;

export interface Theme {
  readonly name: ThemeName | 'plain';
  readonly styles: Readonly<Record<StyleName, Style>>;
}

/** Each agent's glyph colour in `palette`, from its descriptor. */
const agentStyles = (palette: ThemeName): Record<`agent.${AgentKind}`, Style> =>
  Object.fromEntries(Object.entries(AGENT_COLOUR).map(([kind, colour]) => [`agent.${kind}`, { fg: colour.tui[palette], bold: true }])) as Record<`agent.${AgentKind}`, Style>;

const DARK: Theme = {
  name: 'dark',
  styles: {
    text: {},
    muted: { fg: 244 },
    title: { fg: 255, bg: 236, bold: true },
    titleAccent: { fg: 117, bg: 236 },
    panelTitle: { fg: 250, bold: true },
    panelTitleFocus: { fg: 117, bold: true, underline: true },
    border: { fg: 241 },
    selected: { bg: 238 },
    cursor: { fg: 117, bold: true },
    label: { fg: 246 },
    value: { fg: 252 },
    spark: { fg: 71 },
    spinner: { fg: 117 },
    key: { fg: 117, bold: true },
    help: { fg: 246 },
    info: { fg: 114 },
    error: { fg: 203, bold: true },
    prompt: { fg: 229, bold: true },
    modal: { fg: 252, bg: 235 },
    modalBorder: { fg: 117, bg: 235 },
    tabActive: { fg: 235, bg: 117, bold: true },
    tabInactive: { fg: 246, bg: 235 },
    'act.idle': { fg: 242 },
    'act.waiting': { fg: 214, bold: true },
    'act.thinking': { fg: 141 },
    'act.compacting': { fg: 221 },
    'act.reading': { fg: 80 },
    'act.writing': { fg: 114 },
    'act.running': { fg: 75 },
    'act.searching': { fg: 180 },
    'act.browsing': { fg: 110 },
    'act.spawning': { fg: 176 },
    header: { fg: 246, bold: true },
    borderFocus: { fg: 117 },
    status: { fg: 250, bg: 236 },
    statusWarn: { fg: 214, bg: 236, bold: true },
    ...agentStyles('dark'),
  },
};

const LIGHT: Theme = {
  name: 'light',
  styles: {
    text: {},
    muted: { fg: 245 },
    title: { fg: 232, bg: 253, bold: true },
    titleAccent: { fg: 25, bg: 253 },
    panelTitle: { fg: 238, bold: true },
    panelTitleFocus: { fg: 25, bold: true, underline: true },
    border: { fg: 250 },
    selected: { bg: 254 },
    cursor: { fg: 25, bold: true },
    label: { fg: 243 },
    value: { fg: 235 },
    spark: { fg: 28 },
    spinner: { fg: 25 },
    key: { fg: 25, bold: true },
    help: { fg: 242 },
    info: { fg: 28 },
    error: { fg: 160, bold: true },
    prompt: { fg: 94, bold: true },
    modal: { fg: 235, bg: 255 },
    modalBorder: { fg: 25, bg: 255 },
    tabActive: { fg: 255, bg: 25, bold: true },
    tabInactive: { fg: 243, bg: 255 },
    'act.idle': { fg: 247 },
    'act.waiting': { fg: 166, bold: true },
    'act.thinking': { fg: 91 },
    'act.compacting': { fg: 136 },
    'act.reading': { fg: 30 },
    'act.writing': { fg: 28 },
    'act.running': { fg: 25 },
    'act.searching': { fg: 94 },
    'act.browsing': { fg: 31 },
    'act.spawning': { fg: 127 },
    header: { fg: 241, bold: true },
    borderFocus: { fg: 25 },
    status: { fg: 236, bg: 253 },
    statusWarn: { fg: 166, bg: 253, bold: true },
    ...agentStyles('light'),
  },
};

/**
 * No colors at all (NO_COLOR, and the snapshot tests): only attributes that carry meaning
 * without color, so the selection and the focused panel stay visible.
 */
const PLAIN: Theme = {
  name: 'plain',
  styles: {
    ...(Object.fromEntries(Object.keys(DARK.styles).map((name) => [name, {}])) as Record<StyleName, Style>),
    title: { bold: true },
    panelTitleFocus: { bold: true, underline: true },
    selected: { inverse: true },
    tabActive: { inverse: true },
    error: { bold: true },
    header: { bold: true },
    statusWarn: { bold: true },
    'act.waiting': { bold: true },
  },
};

export const THEMES = { dark: DARK, light: LIGHT, plain: PLAIN } as const;

/** The theme to draw with: the resolved palette, or no colors at all when colors are off. */
export const pickTheme = (name: ThemeName, colors: boolean): Theme => (colors ? THEMES[name] : PLAIN);
