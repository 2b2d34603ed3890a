import type { AgentKind } from '../core/agents.js';
import { diagnosticName, severityOf, type DiagnosticSeverity } from '../core/diagnostics.js';
import type { DiagnosticEvent, SessionState } from '../core/session.js';
import { describeUnknownKey, type UnknownKey } from '../config/unknown-keys.js';
import { AGENT_ENV, agentLocalUntil, AGENTS } from '../sources/agents.js';
import { RETRY_NOTE } from '../sources/sqlite/errors.js';
import { isVisible, type VisibilityOptions } from '../streams/visibility.js';
import { agentDrift, type AgentDrift } from './drift.js';
import { locationProblem, type LocationCheck } from './locations.js';
import type { StorageProblem } from './storage.js';

/** `agentwatch doctor --json` (docs/doctor.md). */
export interface DoctorReport {
  readonly healthy: boolean;
  /** Everything that needs the user, one line each; empty when healthy. */
  readonly problems: readonly string[];
  readonly config: {
    readonly path: string;
    readonly valid: boolean;
    readonly error?: string;
    readonly warnings: readonly string[];
    readonly unknown_keys: readonly UnknownKey[];
    /** `session-names.json` beside the config; `problem` when it cannot be used (custom names are lost until it is fixed). */
    readonly session_names: { readonly path: string; readonly problem?: string };
  };
  readonly agents: readonly AgentReport[];
  readonly api: { readonly passphrase: 'set' | 'from AGENTWATCH_API_PASSPHRASE' | 'not set' | 'too short'; readonly note: string };
  readonly webhooks: readonly { readonly name: string; readonly valid: boolean; readonly enabled: boolean; readonly target: string; readonly problems: readonly string[] }[];
  /** Present only when the cache folder cannot take writes (a full, read-only or forbidden disk). */
  readonly storage?: StorageProblem;
}

export interface AgentReport {
  readonly agent: AgentKind;
  readonly enabled: boolean;
  readonly locations: readonly LocationCheck[];
  /** Transcript files or databases read (a file without a session included). */
  readonly files: number;
  /** Sessions, as `agentwatch sessions --all` lists them (sub-agent transcripts not counted). */
  readonly sessions: number;
  readonly subagent_sessions: number;
  /** Sessions `sessions --all` leaves out because their directory matches `exclude_cwd_substrings` (not in `sessions`). */
  readonly excluded_sessions: number;
  /** Files that hold no session: empty, only junk, or nothing dated yet (grok and kimi: no prompt yet). */
  readonly files_without_session: number;
  /** Agent versions that wrote the sessions, newest-looking last. */
  readonly versions: readonly string[];
  readonly diagnostics: readonly DoctorDiagnostic[];
  /** Counts per diagnostic name. */
  readonly diagnostic_counts: Readonly<Record<string, number>>;
  /**
   * The same counts per agent version that wrote the records, for the diagnostics that know it
   * (unknown_record always does when the agent records a version): `{ "2.1.230": { "unknown_record": 2 } }`.
   */
  readonly diagnostic_counts_by_version: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** The versions the reader was checked against, those seen here, and what newer ones write that it does not know. */
  readonly drift: AgentDrift;
  /** What the user should know about where this agent's sessions are (Amp's server-side threads). */
  readonly notes: readonly string[];
}

interface DoctorDiagnostic {
  readonly code: string;
  readonly name: string;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  readonly path?: string;
  readonly line?: number;
  readonly version?: string;
}

const compareVersions = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/**
 * A diagnostic's message as a one-shot command says it: the running monitor retries a database
 * on its next poll and says so; `doctor` and `sessions` read once, so that promise means nothing there.
 */
export const oneShotMessage = (message: string): string => (message.endsWith(RETRY_NOTE) ? message.slice(0, -RETRY_NOTE.length) : message);

/** What kept a place that is there from being read, by the diagnostic's code. */
const UNREAD_BECAUSE: Readonly<Partial<Record<DiagnosticEvent['code'], string>>> = {
  E_DB_CORRUPT: 'corrupt or not a database',
  E_DB_LOCKED: 'locked by another process',
  E_DB_SCHEMA: 'a database of a layout this version does not know',
  E_READ: 'cannot be read',
};

/**
 * A place found there (`ok` by its stat) whose database or directory could not be read after all,
 * said so, with the diagnostic that tells why: never `ok` for a place none of whose sessions were read.
 */
const withReadFailures = (locations: readonly LocationCheck[], diagnostics: readonly DiagnosticEvent[]): LocationCheck[] =>
  locations.map((location) => {
    if (location.state !== 'found') return location;
    const failure = diagnostics.find((d) => d.path === location.path && UNREAD_BECAUSE[d.code] !== undefined);
    if (!failure) return location;
    const name = diagnosticName(failure.code);
    return { ...location, state: 'unreadable', detail: `${UNREAD_BECAUSE[failure.code] ?? name}: see ${name} below`, diagnostic: name };
  });

/**
 * Is this state a session, as `sessions --all` counts one (any age, any directory, a sub-agent
 * transcript counted as one of those)? Dated, and for grok and kimi with a prompt.
 */
const holdsSession = (s: SessionState, agents: ReadonlySet<AgentKind>): boolean =>
  isVisible(s.isSidechain ? { ...s, isSidechain: false } : s, 0, { windowMinutes: undefined, excludeCwdSubstrings: [], agents });

/** The agent's note when it stopped writing sessions here and no session here is newer than that. */
const localNotes = (agent: AgentKind, sessions: readonly SessionState[]): string[] => {
  const until = agentLocalUntil(agent);
  if (!until) return [];
  const since = Date.parse(until.date);
  return sessions.some((s) => s.lastActivityAt >= since) ? [] : [until.note];
};

/** Pure: one agent's part of the report from what its source found. */
export const agentReport = (
  agent: AgentKind,
  enabled: boolean,
  locations: readonly LocationCheck[],
  sessions: readonly SessionState[],
  diagnostics: readonly DiagnosticEvent[],
  options: { readonly excludeCwdSubstrings?: readonly string[] } = {},
): AgentReport => {
  const own = sessions.filter((s) => s.agent === agent);
  const mine = diagnostics.filter((d) => d.agent === agent);
  const agents = new Set([agent]);
  const real = own.filter((s) => holdsSession(s, agents));
  const listed: VisibilityOptions = { windowMinutes: undefined, excludeCwdSubstrings: options.excludeCwdSubstrings ?? [], agents };
  const main = real.filter((s) => !s.isSidechain);
  const shown = main.filter((s) => isVisible(s, 0, listed)).length;
  const files = new Set(own.map((s) => s.path).filter((p) => p !== ''));
  const withSession = new Set(real.map((s) => s.path));
  const counts: Record<string, number> = {};
  const byVersion: Record<string, Record<string, number>> = {};
  for (const d of mine) {
    const name = diagnosticName(d.code);
    counts[name] = (counts[name] ?? 0) + 1;
    if (!d.version) continue;
    const perVersion = (byVersion[d.version] ??= {});
    perVersion[name] = (perVersion[name] ?? 0) + 1;
  }
  return {
    agent,
    enabled,
    locations: withReadFailures(locations, mine),
    files: files.size,
    sessions: shown,
    subagent_sessions: real.length - main.length,
    excluded_sessions: main.length - shown,
    files_without_session: [...files].filter((p) => !withSession.has(p)).length,
    versions: [...new Set(own.map((s) => s.version).filter((v) => v !== ''))].sort(compareVersions),
    diagnostics: mine.map((d) => ({
      code: d.code,
      name: diagnosticName(d.code),
      severity: severityOf(d.code),
      message: oneShotMessage(d.message),
      ...(d.path ? { path: d.path } : {}),
      ...(d.line !== undefined ? { line: d.line } : {}),
      ...(d.version ? { version: d.version } : {}),
    })),
    diagnostic_counts: counts,
    diagnostic_counts_by_version: Object.fromEntries(Object.entries(byVersion).sort(([a], [b]) => compareVersions(a, b))),
    drift: agentDrift(AGENTS[agent].checkedVersions, real, mine),
    notes: localNotes(agent, real),
  };
};

/**
 * When no enabled agent has a single file where agentwatch looks: say so, and how to point
 * agentwatch at data kept elsewhere (the agents' own variables), rather than "healthy".
 */
const noAgentData = (agents: readonly AgentReport[]): string[] => {
  const enabled = agents.filter((a) => a.enabled);
  if (enabled.length === 0 || enabled.some((a) => a.files > 0 || a.sessions > 0)) return [];
  const variables = [...new Set(enabled.flatMap((a) => AGENT_ENV[a.agent]).filter((name) => !name.startsWith('XDG_')))];
  return [
    `no agent data: no agent has written a session where agentwatch looks (above). If your agents keep their data elsewhere, point agentwatch at it with the agents' own variables (${variables.join(', ')}) or claude_dirs in the config; agentwatch --demo shows agentwatch at work`,
  ];
};

/** The lines of the agents' part that need the user: unreadable places and attention diagnostics. */
const agentProblems = (agents: readonly AgentReport[]): string[] =>
  agents.flatMap((a) =>
    a.enabled
      ? [
          ...a.locations.flatMap((l) => locationProblem(a.agent, l) ?? []),
          ...[...new Set(a.diagnostics.filter((d) => d.severity === 'attention').map((d) => `${a.agent}: ${d.message}`))],
        ]
      : [],
  );

/** Pure: the lines that need the user, from every part of the report. */
export const problemsOf = (report: Omit<DoctorReport, 'healthy' | 'problems'>): string[] => {
  const agents = agentProblems(report.agents);
  return [
    ...(report.config.valid ? [] : [`config: ${report.config.error ?? 'invalid'}`]),
    ...report.config.unknown_keys.map((k) => `config: ${describeUnknownKey(k)}`),
    // Custom names are lost until the file is fixed: the user's to do.
    ...(report.config.session_names.problem ? [`config: ${report.config.session_names.problem}`] : []),
    ...agents,
    // A stored passphrase that is too short makes the config invalid (said above); the API line says the same.
    ...(report.api.passphrase === 'too short' && report.config.valid ? [`api: ${report.api.note}`] : []),
    ...report.webhooks.filter((w) => !w.valid).map((w) => `webhook "${w.name}": ${w.problems.join('; ')}`),
    ...(report.storage ? [`storage: ${report.storage.message}`] : []),
    // Nothing found anywhere, and nothing above to explain why.
    ...(agents.length === 0 ? noAgentData(report.agents) : []),
  ];
};
