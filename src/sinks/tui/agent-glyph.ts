import { AGENT_KINDS, type AgentKind } from '../../core/agents.js';
import type { SessionSummary } from '../../core/session.js';
import { AGENT_GLYPH } from '../../sources/agents.js';

// How the list names an agent: a colored one-cell glyph where space is short (the `?` overlay has
// the legend), the agent's name where the list is wide enough.

/** Claude Desktop sessions (the macOS app's sidecar) are told apart from the CLI's. */
const DESKTOP_GLYPH = 'D';

export const agentGlyph = (summary: Pick<SessionSummary, 'agent' | 'source'>): string =>
  summary.agent === 'claude' && summary.source === 'desktop' ? DESKTOP_GLYPH : AGENT_GLYPH[summary.agent];

/** The agent column's text in the wide list: the agent kind, as the CLI and config spell it. */
export const agentColumnText = (summary: Pick<SessionSummary, 'agent' | 'source'>): string =>
  summary.agent === 'claude' && summary.source === 'desktop' ? 'claude·D' : summary.agent;

/** Widest `agentColumnText` ("opencode", "claude·D"). */
export const AGENT_NAME_WIDTH = Math.max(8, ...AGENT_KINDS.map((kind) => kind.length));

/** Legend rows for the help overlay: glyph and agent, in the order of `AGENT_KINDS`. */
export const glyphLegend = (): readonly (readonly [glyph: string, agent: AgentKind, label: string])[] => [
  ...AGENT_KINDS.map((kind) => [AGENT_GLYPH[kind], kind, kind] as const),
  [DESKTOP_GLYPH, 'claude', 'claude (Desktop app)'] as const,
];
