import { LIMIT_AGENTS, type LimitAgent } from '../core/agents.js';
import { ROWS_OF, type LimitReport, type LimitRowLabel, type Outcome, type Outcomes } from './types.js';

/** One printed row: cursor's outcome yields two, every other agent one. */
export interface RowEntry {
  readonly row: LimitRowLabel;
  readonly agent: LimitAgent;
  readonly status: Outcome['kind'];
  readonly error?: string;
  readonly report?: LimitReport;
}

/** The rows of `outcomes` in their fixed order (Claude, Codex, Grok, Kimi, Cursor Models, Cursor API). */
export const rowsOf = (outcomes: Outcomes): RowEntry[] =>
  LIMIT_AGENTS.flatMap((agent) => {
    const outcome = outcomes[agent];
    if (!outcome) return [];
    return ROWS_OF[agent].map((row): RowEntry => {
      if (outcome.kind === 'ok') {
        const report = outcome.reports.find((r) => r.row === row);
        return report ? { row, agent, status: 'ok', report } : { row, agent, status: 'failed', error: `no ${row} figures in the answer` };
      }
      // An agent with sessions but no login says why it has no figures; one with neither stays silent.
      if (outcome.kind === 'skipped') return { row, agent, status: 'skipped', ...(outcome.sessions ? { error: outcome.message } : {}) };
      // A failed live answer may still come with what the agent wrote itself: shown, with the error.
      const report = outcome.reports?.find((r) => r.row === row);
      return { row, agent, status: 'failed', error: outcome.message, ...(report ? { report } : {}) };
    });
  });

/**
 * A skip is silent under `--agent all`, but an agent asked for by name that has no credential (or
 * nothing to pace) is a friendly error: the user asked for it (docs/limits.md).
 */
export const resolveOutcomes = (outcomes: Outcomes, explicit: boolean): Outcomes => {
  if (!explicit) return outcomes;
  const resolved: Partial<Record<LimitAgent, Outcome>> = {};
  for (const agent of LIMIT_AGENTS) {
    const outcome = outcomes[agent];
    if (!outcome) continue;
    resolved[agent] =
      outcome.kind === 'skipped' ? { kind: 'failed', agent, code: outcome.reason === 'no-credential' ? 'E_NO_CREDENTIAL' : 'E_NOTHING_TO_PACE', message: outcome.message } : outcome;
  }
  return resolved;
};

const present = (outcomes: Outcomes): Outcome[] => LIMIT_AGENTS.flatMap((agent) => (outcomes[agent] ? [outcomes[agent]] : []));

/** True when every agent was skipped: nothing could be reported at all. */
export const noneAvailable = (outcomes: Outcomes): boolean => present(outcomes).every((o) => o.kind === 'skipped');

/** 0 when every requested agent succeeded (silent skips allowed), else 1 (docs/limits.md). */
export const exitCodeOf = (outcomes: Outcomes): 0 | 1 => {
  const all = present(outcomes);
  if (all.some((o) => o.kind === 'failed')) return 1;
  return all.some((o) => o.kind === 'ok') ? 0 : 1;
};

/** The stderr lines, one per failed agent, in the `Error (<agent>): ...` form. */
export const errorLines = (outcomes: Outcomes): string[] =>
  present(outcomes).flatMap((o) => (o.kind === 'failed' ? [`Error (${o.agent}): ${o.message}`] : []));

/**
 * One line per agent that has sessions here but no login, even under `all`: which file was looked
 * for and what to run. Not an error: the exit code stays as the other agents make it.
 */
export const noticeLines = (outcomes: Outcomes): string[] =>
  present(outcomes).flatMap((o) => (o.kind === 'skipped' && o.sessions ? [`Note (${o.agent}): ${o.message}`] : []));

/** The one guidance message when `--agent all` finds nothing to report (the CLI puts its name in front; the TUI does not). */
export const guidanceMessage = (outcomes: Outcomes): string => {
  const reasons = present(outcomes)
    .filter((o): o is Extract<Outcome, { kind: 'skipped' }> => o.kind === 'skipped' && o.reason === 'nothing-to-pace')
    .map((o) => ` (${o.agent}: ${o.message})`)
    .join('');
  return `No agent to report on. Log in to at least one of them first: run \`claude\`, \`codex\`, \`grok login\` or \`kimi login\`, or sign in to Cursor${reasons}.`;
};
