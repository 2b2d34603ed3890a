import type { DiagnosticCode, DiagnosticEvent } from './session.js';

/**
 * What a diagnostic asks of the user. `attention`: something they can and should fix, whose
 * sessions are missing meanwhile (an unreadable directory, a locked, corrupt or unknown database,
 * a watch that failed). `info`: records skipped inside otherwise readable files (junk or cut
 * lines, shapes or record types of another agent version); the rest of the session is read.
 */
export type DiagnosticSeverity = 'attention' | 'info';

// Every code once: the compiler says when a code is added to the type and not here.
const EVERY_CODE: Readonly<Record<DiagnosticCode, true>> = {
  E_JUNK_LINE: true,
  E_SCHEMA: true,
  E_OVERSIZED_LINE: true,
  E_READ: true,
  E_DB_LOCKED: true,
  E_DB_SCHEMA: true,
  E_DB_CORRUPT: true,
  E_WATCH: true,
  E_CACHE: true,
  E_UNKNOWN_RECORD: true,
};
export const DIAGNOSTIC_CODES = Object.keys(EVERY_CODE) as readonly DiagnosticCode[];

const ATTENTION: ReadonlySet<DiagnosticCode> = new Set(['E_READ', 'E_DB_LOCKED', 'E_DB_SCHEMA', 'E_DB_CORRUPT', 'E_WATCH']);

export const severityOf = (code: DiagnosticCode): DiagnosticSeverity => (ATTENTION.has(code) ? 'attention' : 'info');

/**
 * Of the fold's diagnostic counts (keyed `agent:code`), those that need the user: what the TUI's
 * status line and the dashboard's footer count, and what makes `agentwatch doctor` unhealthy.
 * Skipped lines and records (`info`) are listed by doctor but raise no alarm.
 */
export const needingAttention = (counts: Readonly<Record<string, number>>): number => {
  let sum = 0;
  for (const [key, n] of Object.entries(counts)) if (ATTENTION.has(key.slice(key.indexOf(':') + 1) as DiagnosticCode)) sum += n;
  return sum;
};

/** The name users read: `unknown_record` for E_UNKNOWN_RECORD, `junk_line` for E_JUNK_LINE... */
export const diagnosticName = (code: DiagnosticCode): string => code.replace(/^E_/, '').toLowerCase();

/** Where: `file:line` when the line is known, the file, or nothing. */
export const locationOf = (d: Pick<DiagnosticEvent, 'path' | 'line'>): string => (d.path ? `${d.path}${d.line !== undefined ? `:${d.line}` : ''}` : '');

/** One line for stderr: `claude: cannot read directory /x: EACCES (its sessions are not shown)`. */
export const describeDiagnostic = (d: DiagnosticEvent): string => {
  const where = locationOf(d);
  return `${d.agent}: ${d.message}${where && !d.message.includes(d.path ?? '\u0000') ? ` (${where})` : ''}`;
};
