import type { Config } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import type { AgentKind } from '../core/agents.js';
import type { DemoSession } from '../demo/scripts.js';
import type { LimitsProvider } from '../limits/provider.js';
import type { Source } from './contracts.js';
import type { AgentDatabase } from './sqlite/many-databases.js';

/** What the places an agent reads are computed from. */
export interface Where {
  readonly config: Pick<Config, 'claude_dirs'>;
  readonly env: Env;
  readonly platform: NodeJS.Platform;
}

/** One place an agent's source reads, as the "looked in" lines and doctor check it. */
export interface Location {
  readonly path: string;
  /** Named only when something is there: a place most users never fill (archived threads). */
  readonly onlyIfPresent?: boolean;
  /**
   * The config entry the place comes from, when the user named one: nothing there is then a
   * mistake in the config, not an agent that is not installed. `holds`: the folder each entry
   * must contain (`projects/`).
   */
  readonly configEntry?: { readonly key: string; readonly entry: string; readonly holds: string };
}

/**
 * How an agent is coloured in each palette: a 256-colour index for the TUI's dark and light
 * themes, a CSS colour for the dashboard's dark and light schemes. Agents may share a value.
 */
export interface AgentColour {
  readonly tui: { readonly dark: number; readonly light: number };
  readonly web: { readonly dark: string; readonly light: string };
}

/** The session facts a resume command is built from. */
export interface ResumeTarget {
  readonly sessionId: string;
  readonly isSidechain: boolean;
  /** Where the session lives (an older form of an agent's store may not be resumable). */
  readonly path?: string;
}

/**
 * Everything agentwatch knows about one agent outside its reader. Kept light: a descriptor
 * imports its agent's path functions, never its parser, so the sources still load on demand.
 */
export interface AgentDescriptor<K extends string = AgentKind> {
  readonly kind: K;
  /** Tables, notifications, the dashboard. */
  readonly label: string;
  /** One cell, where the TUI list is narrow. */
  readonly glyph: string;
  readonly colour: AgentColour;
  /** Its sessions in `--demo`, if it has any. */
  readonly demo?: readonly DemoSession<K>[];
  /** JSONL or JSON files under directories, or SQLite database files. */
  readonly storage: 'files' | 'sqlite';
  /** Environment variables that move where the agent (and so its reader) keeps its sessions. */
  readonly env: readonly string[];
  /** Every place the source reads, in the order it reads them. */
  readonly locations: (where: Where) => readonly Location[];
  /**
   * What search stamps to tell whether anything was written since its last catch-up: the
   * transcripts and the side files naming sessions. Empty for the SQLite agents, whose
   * databases search stamps itself.
   */
  readonly stampRoots: (where: Where) => readonly string[];
  /**
   * The agent creates a session before its first prompt: such a session is not listed until it
   * has one (an empty one is noise).
   */
  readonly hiddenUntilPrompted?: boolean;
  /**
   * The agent's sub-agents write sessions of their own (hidden under their parent) whose spend the
   * parent's own totals leave out: their tokens and cost are added to the parent's.
   */
  readonly subagentsRollUp?: boolean;
  /** The command that resumes a session, '' when the session cannot be resumed on its own. */
  readonly resume: (session: ResumeTarget) => string;
  /**
   * The agent versions (or, where the agent records none, format versions) the reader was
   * checked against.
   */
  readonly checkedVersions: readonly string[];
  /**
   * When the agent stopped writing its sessions where it is read (it keeps them elsewhere since):
   * doctor says so when nothing here is newer, rather than "no sessions".
   */
  readonly localUntil?: { readonly date: string; readonly note: string };
  /**
   * How `agentwatch limits` reads the agent's rate-limit windows (its `limits.ts`), loaded when
   * first asked for; only the agents in `LIMIT_AGENTS` have one.
   */
  readonly limits?: () => Promise<LimitsProvider>;
  /** The agent's source, loaded when first asked for. */
  readonly load: () => Promise<Source>;
  /**
   * A SQLite agent's databases as search catches them up (each with the reader that replays its
   * sessions), loaded when first asked for.
   */
  readonly searchDatabases?: () => Promise<SearchDatabases>;
}

/** The databases of a SQLite agent that search reads, under an environment. */
export type SearchDatabases = (env: Env, platform: NodeJS.Platform) => readonly AgentDatabase[];

/**
 * What an agent's own descriptor file declares: everything but the loaders, which the registry
 * adds, so that the agent's reader may import its descriptor without a loop back through it.
 */
export type AgentFacts<K extends string = AgentKind> = Omit<AgentDescriptor<K>, 'load' | 'searchDatabases'>;
