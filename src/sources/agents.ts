import { LIMIT_AGENTS, type AgentKind, type LimitAgent } from '../core/agents.js';
import type { LimitsProviders } from '../limits/fetch-limits.js';
import type { Source } from './contracts.js';
import { agentTables, type AgentRegistry } from './agent-tables.js';
import type { AgentFacts, SearchDatabases } from './descriptor.js';
import { amp } from './amp/descriptor.js';
import { claude } from './claude/descriptor.js';
import { codex } from './codex/descriptor.js';
import { copilot } from './copilot/descriptor.js';
import { crush } from './crush/descriptor.js';
import { cursor } from './cursor/descriptor.js';
import { droid } from './droid/descriptor.js';
import { gemini } from './gemini/descriptor.js';
import { goose } from './goose/descriptor.js';
import { grok } from './grok/descriptor.js';
import { kilo } from './kilo/descriptor.js';
import { kimi } from './kimi/descriptor.js';
import { opencode } from './opencode/descriptor.js';
import { pi } from './pi/descriptor.js';
import { qwen } from './qwen/descriptor.js';

/** An agent's facts with its source (and a SQLite agent's databases for search), loaded when first asked for. */
const withSource = <K extends AgentKind, F extends AgentFacts<K>>(
  facts: F,
  load: () => Promise<Source>,
  searchDatabases?: () => Promise<SearchDatabases>,
): F & { readonly load: () => Promise<Source>; readonly searchDatabases?: () => Promise<SearchDatabases> } => ({ ...facts, load, ...(searchDatabases ? { searchDatabases } : {}) });

/**
 * Every agent, one line each, in `AGENT_KINDS` order (help texts and legends list them so). A new
 * agent is its folder (descriptor.ts beside its source) and a line here; `npm run generate`
 * then writes its kind into `AGENT_KINDS` and the config docs.
 */
export const AGENTS = {
  amp: withSource(amp, async () => (await import('./amp/index.js')).amp),
  claude: withSource(claude, async () => (await import('./claude/index.js')).claude),
  codex: withSource(codex, async () => (await import('./codex/index.js')).codex),
  copilot: withSource(copilot, async () => (await import('./copilot/index.js')).copilot),
  crush: withSource(crush, async () => (await import('./crush/index.js')).crush, async () => (await import('./crush/search.js')).searchDatabases),
  cursor: withSource(cursor, async () => (await import('./cursor/index.js')).cursor, async () => (await import('./cursor/search.js')).searchDatabases),
  droid: withSource(droid, async () => (await import('./droid/index.js')).droid),
  gemini: withSource(gemini, async () => (await import('./gemini/index.js')).gemini),
  goose: withSource(goose, async () => (await import('./goose/index.js')).goose, async () => (await import('./goose/search.js')).searchDatabases),
  grok: withSource(grok, async () => (await import('./grok/index.js')).grok),
  kilo: withSource(kilo, async () => (await import('./kilo/index.js')).kilo, async () => (await import('./kilo/search.js')).searchDatabases),
  kimi: withSource(kimi, async () => (await import('./kimi/index.js')).kimi),
  opencode: withSource(opencode, async () => (await import('./opencode/index.js')).opencode, async () => (await import('./opencode/search.js')).searchDatabases),
  pi: withSource(pi, async () => (await import('./pi/index.js')).pi),
  qwen: withSource(qwen, async () => (await import('./qwen/index.js')).qwen),
} as const satisfies AgentRegistry<AgentKind>;

const tables = agentTables<AgentKind>(AGENTS);

export const AGENT_LABEL = tables.labels;
export const AGENT_GLYPH = tables.glyphs;
export const AGENT_COLOUR = tables.colours;
export const AGENT_LOOKS = tables.looks;
export const AGENT_ENV = tables.env;
export const DEMO_SESSIONS = tables.demoSessions;
export const HIDDEN_UNTIL_PROMPTED = tables.hiddenUntilPrompted;
export const SUBAGENTS_ROLL_UP = tables.subagentsRollUp;
export const agentLocations = tables.locations;
export const agentAllLocations = tables.allLocations;
export const agentStampRoots = tables.stampRoots;
export const agentResume = tables.resume;
export const agentLocalUntil = tables.localUntil;
export const agentLoaders = tables.loaders;
export const agentSearchDatabases = tables.searchDatabases;

/** The agents whose sources read SQLite databases (search catches them up through their readers). */
export type SqliteAgent = { [K in AgentKind]: (typeof AGENTS)[K]['storage'] extends 'sqlite' ? K : never }[AgentKind];
export const SQLITE_AGENTS = tables.databaseAgents as readonly SqliteAgent[];
export const isSqliteAgent = (agent: AgentKind): agent is SqliteAgent => AGENTS[agent].storage === 'sqlite';

/** The agents whose descriptor names a limits provider. */
type WithLimits = { [K in AgentKind]: (typeof AGENTS)[K] extends { readonly limits: unknown } ? K : never }[AgentKind];
/** `agentwatch limits` reports exactly the agents with a provider: a mismatch does not compile. */
const _limitsAgentsHaveProviders: [WithLimits] extends [LimitAgent] ? ([LimitAgent] extends [WithLimits] ? true : false) : false = true;

/** Each limits agent's provider, from its folder. */
export const agentLimits = Object.fromEntries(LIMIT_AGENTS.map((agent) => [agent, AGENTS[agent].limits])) as LimitsProviders;
