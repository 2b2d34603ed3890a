import type { AgentKind } from '../core/agents.js';
import { diagnosticName, severityOf, type DiagnosticSeverity } from '../core/diagnostics.js';
import type { DiagnosticEvent, SessionState } from '../core/session.js';
import { describeUnknownKey, type UnknownKey } from '../config/unknown-keys.js';
import type { LocationCheck } from './locations.js';

/** `agentwatch doctor --json` (PRODUCT.md section 9). */
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
  };
  readonly agents: readonly AgentReport[];
  readonly api: { readonly passphrase: 'set' | 'from AGENTWATCH_API_PASSPHRASE' | 'not set' | 'too short'; readonly note: string };
  readonly webhooks: readonly { readonly name: string; readonly valid: boolean; readonly enabled: boolean; readonly target: string; readonly problems: readonly string[] }[];
}

export interface AgentReport {
  readonly agent: AgentKind;
  readonly enabled: boolean;
  readonly locations: readonly LocationCheck[];
  /** Transcript files or databases the sessions came from. */
  readonly files: number;
  /** Sessions found (sub-agent transcripts not counted). */
  readonly sessions: number;
  readonly subagent_sessions: number;
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
}

export interface DoctorDiagnostic {
  readonly code: string;
  readonly name: string;
  readonly severity: DiagnosticSeverity;
  readonly message: string;
  readonly path?: string;
  readonly line?: number;
  readonly version?: string;
}

const compareVersions = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** Pure: one agent's part of the report from what its source found. */
export const agentReport = (
  agent: AgentKind,
  enabled: boolean,
  locations: readonly LocationCheck[],
  sessions: readonly SessionState[],
  diagnostics: readonly DiagnosticEvent[],
): AgentReport => {
  const own = sessions.filter((s) => s.agent === agent);
  const mine = diagnostics.filter((d) => d.agent === agent);
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
    locations,
    files: new Set(own.map((s) => s.path).filter((p) => p !== '')).size,
    sessions: own.filter((s) => !s.isSidechain).length,
    subagent_sessions: own.filter((s) => s.isSidechain).length,
    versions: [...new Set(own.map((s) => s.version).filter((v) => v !== ''))].sort(compareVersions),
    diagnostics: mine.map((d) => ({
      code: d.code,
      name: diagnosticName(d.code),
      severity: severityOf(d.code),
      message: d.message,
      ...(d.path ? { path: d.path } : {}),
      ...(d.line !== undefined ? { line: d.line } : {}),
      ...(d.version ? { version: d.version } : {}),
    })),
    diagnostic_counts: counts,
    diagnostic_counts_by_version: Object.fromEntries(Object.entries(byVersion).sort(([a], [b]) => compareVersions(a, b))),
  };
};

/** Pure: the lines that need the user, from every part of the report. */
export const problemsOf = (report: Omit<DoctorReport, 'healthy' | 'problems'>): string[] => [
  ...(report.config.valid ? [] : [`config: ${report.config.error ?? 'invalid'}`]),
  ...report.config.unknown_keys.map((k) => `config: ${describeUnknownKey(k)}`),
  ...report.agents.flatMap((a) =>
    a.enabled
      ? [
          ...a.locations.filter((l) => l.state === 'unreadable' || l.state === 'wrong type').map((l) => `${a.agent}: ${l.path}: ${l.state}${l.detail ? ` (${l.detail})` : ''}`),
          ...a.locations.filter((l) => l.state === 'missing' && l.config_entry !== undefined).map((l) => `config: ${l.detail ?? `${l.config_entry}: ${l.path} not found`}`),
          ...[...new Set(a.diagnostics.filter((d) => d.severity === 'attention').map((d) => `${a.agent}: ${d.message}`))],
        ]
      : [],
  ),
  ...(report.api.passphrase === 'too short' ? [`api: ${report.api.note}`] : []),
  ...report.webhooks.filter((w) => !w.valid).map((w) => `webhook "${w.name}": ${w.problems.join('; ')}`),
];
