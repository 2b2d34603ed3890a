import type { Env } from '../config/paths.js';
import type { Source } from './contracts.js';
import type { AgentDatabase } from './sqlite/many-databases.js';
import type { AgentDescriptor, Location, ResumeTarget, Where } from './descriptor.js';

/** One descriptor per agent kind, each under its own kind. */
export type AgentRegistry<K extends string> = { readonly [P in K]: AgentDescriptor<P> };

/** How the dashboard names an agent (its colours reach the page as CSS, `agentCss`). */
export interface AgentLook {
  readonly label: string;
  readonly glyph: string;
}

const byKind = <K extends string, V>(kinds: readonly K[], value: (kind: K) => V): Readonly<Record<K, V>> =>
  Object.fromEntries(kinds.map((kind) => [kind, value(kind)])) as Record<K, V>;

/**
 * Everything the rest of agentwatch asks about agents, derived from one registry: a new agent
 * is a descriptor in its folder and a line in the registry, and shows up in every table here.
 */
export const agentTables = <K extends string>(registry: AgentRegistry<K>) => {
  const kinds = Object.keys(registry) as K[];
  const of = (kind: K): AgentDescriptor<K> => registry[kind];
  return {
    kinds,
    labels: byKind(kinds, (kind) => of(kind).label),
    glyphs: byKind(kinds, (kind) => of(kind).glyph),
    colours: byKind(kinds, (kind) => of(kind).colour),
    looks: byKind(kinds, (kind): AgentLook => ({ label: of(kind).label, glyph: of(kind).glyph })),
    /** The sessions `--demo` shows, agent by agent. */
    demoSessions: kinds.flatMap((kind) => of(kind).demo ?? []),
    /** Environment variables that move where each agent keeps its sessions. */
    env: byKind(kinds, (kind) => of(kind).env),
    /** The agents whose sessions are listed only once they have a prompt. */
    hiddenUntilPrompted: new Set(kinds.filter((kind) => of(kind).hiddenUntilPrompted === true)) as ReadonlySet<K>,
    /** The agents whose sub-agents' spend is added to their parent session's. */
    subagentsRollUp: new Set(kinds.filter((kind) => of(kind).subagentsRollUp === true)) as ReadonlySet<K>,
    /** The agents whose sources read database files rather than directories, in registry order. */
    databaseAgents: kinds.filter((kind) => of(kind).storage === 'sqlite'),
    /** How help texts list the agents a flag accepts (cli/registry.ts spells the same list from AGENT_KINDS). */
    helpList: kinds.join(' '),
    /** Every place `kind`'s source reads, checked or not: the ones named only when present included. */
    allLocations: (kind: K, where: Where): readonly Location[] => of(kind).locations(where),
    /** The places `kind`'s source reads that "Looked in:" always names. */
    locations: (kind: K, where: Where): string[] =>
      of(kind)
        .locations(where)
        .filter((location) => location.onlyIfPresent !== true)
        .map((location) => location.path),
    stampRoots: (kind: K, where: Where): string[] => [...of(kind).stampRoots(where)],
    resume: (kind: K, session: ResumeTarget): string => of(kind).resume(session),
    /** When `kind` stopped writing sessions where it is read, if it did. */
    localUntil: (kind: K): AgentDescriptor<K>['localUntil'] => of(kind).localUntil,
    loaders: byKind(kinds, (kind): (() => Promise<Source>) => of(kind).load),
    /** The databases search catches up for `kind`: none for an agent that keeps files. */
    searchDatabases: async (kind: K, env: Env, platform: NodeJS.Platform): Promise<readonly AgentDatabase[]> => {
      const load = of(kind).searchDatabases;
      return load ? (await load())(env, platform) : [];
    },
  };
};
