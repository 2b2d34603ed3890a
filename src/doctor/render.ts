import type { AgentReport, DoctorReport } from './report.js';

const STATE_WORD = { found: 'ok', missing: 'not found (agent not installed or no sessions yet)', unreadable: 'UNREADABLE', 'wrong type': 'WRONG TYPE' } as const;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Versions checked and seen; a version whose records the reader does not know, and the sessions that may be wrong. */
const driftLines = (a: AgentReport): string[] => {
  const { checked_versions: checked, seen_versions: seen, unknown_records: unknown } = a.drift;
  const out: string[] = [];
  const here = seen.map((v) => `${v.version} (${plural(v.sessions, 'session')}${v.newer ? ', NEWER' : ''})`);
  if (checked.length > 0 || here.length > 0) out.push(`  reader checked against ${checked.join(', ') || 'no version'}; seen here: ${here.join(', ') || 'no version recorded'}`);
  for (const u of unknown) {
    const who = u.version === '' ? `${a.agent} (no version recorded)` : `${a.agent} ${u.version}${u.newer ? ', newer than checked,' : ''}`;
    const kinds = u.kinds.map((k) => `${k.kind} (${plural(k.files, 'file')})`).join(', ');
    out.push(`  ! ${who} writes records this reader does not know: ${kinds}; e.g. ${u.example}`);
    if (u.sessions.length > 0) out.push(`    sessions that may be shown incomplete: ${u.sessions.join(', ')}`);
  }
  return out;
};

/** The human report of `agentwatch doctor`: where each agent was looked for, what was found, what needs the user. */
export const renderDoctor = (report: DoctorReport): string => {
  const out: string[] = [];
  out.push(`Config  ${report.config.path}${report.config.valid ? '' : '  INVALID'}`);
  if (report.config.error) out.push(`  ${report.config.error}`);
  for (const warning of report.config.warnings) out.push(`  warning: ${warning}`);
  if (report.config.session_names.problem) out.push(`  warning: ${report.config.session_names.problem}`);
  out.push('');
  for (const a of report.agents) {
    if (!a.enabled) {
      out.push(`${a.agent}: disabled in the config`);
      continue;
    }
    const versions = a.versions.length > 0 ? `, versions ${a.versions.join(', ')}` : '';
    const besides = [
      ...(a.subagent_sessions > 0 ? [`+${a.subagent_sessions} sub-agent`] : []),
      ...(a.excluded_sessions > 0 ? [`${a.excluded_sessions} more hidden by exclude_cwd_substrings`] : []),
    ];
    const others = besides.length > 0 ? ` (${besides.join('; ')})` : '';
    // A file is not a session: an empty transcript, one of junk only or with nothing dated is listed by no command.
    const empty = a.files_without_session > 0 ? ` (${a.files_without_session} hold${a.files_without_session === 1 ? 's' : ''} no session: empty, junk only or nothing dated yet)` : '';
    out.push(`${a.agent}: ${a.sessions} session${a.sessions === 1 ? '' : 's'}${others} in ${a.files} file${a.files === 1 ? '' : 's'}${empty}${versions}`);
    for (const l of a.locations) {
      // A place the user configured: nothing there is their config's mistake, not a missing agent.
      const word = l.state === 'missing' && l.config_entry !== undefined ? 'NOT FOUND' : STATE_WORD[l.state];
      out.push(`  looked in ${l.path}: ${word}${l.detail && (l.state !== 'missing' || l.config_entry !== undefined) ? ` (${l.detail})` : ''}`);
    }
    out.push(...driftLines(a));
    for (const note of a.notes) out.push(`  note: ${note}`);
    const counts = Object.entries(a.diagnostic_counts);
    if (counts.length > 0) out.push(`  diagnostics: ${counts.map(([name, n]) => `${n} ${name}`).join(', ')}`);
    for (const [version, perName] of Object.entries(a.diagnostic_counts_by_version)) {
      out.push(`    written by ${a.agent} ${version}: ${Object.entries(perName).map(([name, n]) => `${n} ${name}`).join(', ')}`);
    }
    for (const d of a.diagnostics) {
      const where = d.path ? `${d.path}${d.line !== undefined ? `:${d.line}` : ''}: ` : '';
      out.push(`    ${d.severity === 'attention' ? '!' : '-'} ${d.name}: ${where}${d.message}`);
    }
  }
  out.push('');
  out.push(`API: passphrase ${report.api.passphrase}; ${report.api.note}`);
  if (report.webhooks.length === 0) out.push('Webhooks: none configured');
  for (const w of report.webhooks) {
    out.push(`Webhook "${w.name}": ${w.valid ? (w.enabled ? 'ok' : 'disabled') : `INVALID: ${w.problems.join('; ')}`}${w.target ? ` -> ${w.target}` : ''}`);
  }
  if (report.storage) out.push(`Storage: ${report.storage.message}`);
  out.push('');
  if (report.healthy) out.push('Healthy: nothing needs your attention.');
  else {
    out.push(`${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} need${report.problems.length === 1 ? 's' : ''} your attention:`);
    for (const problem of report.problems) out.push(`  - ${problem}`);
  }
  return `${out.join('\n')}\n`;
};
