import { describeDiagnostic, severityOf } from '../core/diagnostics.js';
import type { Sink } from '../streams/sink.js';

/**
 * Silence is a bug: what keeps sessions from being read (an unreadable directory, a locked or
 * corrupt database) is logged once per distinct problem; `agentwatch doctor` lists the rest.
 */
export const attentionLog = (): Sink => ({ diagnostics$ }, ctx) => {
  const reported = new Set<string>();
  const subscription = diagnostics$.subscribe((d) => {
    const line = describeDiagnostic(d);
    if (severityOf(d.code) !== 'attention' || reported.has(line)) return;
    reported.add(line);
    ctx.log.warn(`${line} (agentwatch doctor for details)`);
  });
  return () => subscription.unsubscribe();
};
