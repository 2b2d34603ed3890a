import type { AgentKind } from '../../core/agents.js';
import { diagnosticName } from '../../core/diagnostics.js';
import type { DiagnosticCode, DiagnosticCounts, SessionEvent } from '../../core/session.js';

/**
 * Diagnostics a checkpoint keeps (`FileCheckpoint.diagnostics`): what reading a session's records
 * found, restored with its state, so a warm start counts what a cold start of the same files
 * counts without reading them again.
 */

/** `counts` plus the diagnostics among `events`, or `counts` itself when there are none. */
export const withDiagnosticsOf = (events: Iterable<SessionEvent>, counts?: DiagnosticCounts): DiagnosticCounts | undefined => {
  let sum: Partial<Record<DiagnosticCode, number>> | undefined;
  for (const event of events) {
    if (event.type !== 'diagnostic') continue;
    sum ??= { ...counts };
    sum[event.code] = (sum[event.code] ?? 0) + (event.count ?? 1);
  }
  return sum ?? counts;
};

/** The counts of `a` and `b` added up. */
export const addCounts = (a: DiagnosticCounts, b: DiagnosticCounts): DiagnosticCounts => {
  const sum: Partial<Record<DiagnosticCode, number>> = { ...a };
  for (const [code, n] of Object.entries(b) as [DiagnosticCode, number][]) sum[code] = (sum[code] ?? 0) + n;
  return sum;
};

/**
 * One `diagnostic` event per code of `counts`, standing for as many as the earlier read found:
 * of a session, or (without `sessionId`) of a database's listing.
 */
export const restoredDiagnostics = (agent: AgentKind, counts: DiagnosticCounts | undefined, where: { readonly sessionId?: string; readonly path?: string }): SessionEvent[] => {
  if (counts === undefined) return [];
  const what = where.sessionId === undefined ? 'this database was listed' : 'this session was read';
  return (Object.entries(counts) as [DiagnosticCode, number][]).map(([code, count]) => ({
    type: 'diagnostic',
    agent,
    code,
    message: `${count} ${diagnosticName(code)} diagnostic${count === 1 ? '' : 's'} found when ${what} before (kept in the discovery cache; agentwatch doctor lists each)`,
    ...(where.sessionId === undefined ? {} : { sessionId: where.sessionId }),
    ...(where.path === undefined ? {} : { path: where.path }),
    count,
  }));
};
