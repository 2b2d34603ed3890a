import { firstValueFrom } from 'rxjs';
import { LIMITS_FLAGS } from './command-flags.js';
import { parseFlags } from './flags.js';
import { RuntimeError, UsageError, type CliIo } from '../core/io.js';
import { loadConfigWithNotices } from '../app/config-setup.js';
import { sessionsAtOf } from '../app/limits-sessions.js';
import { LIMIT_AGENTS, type LimitAgent } from '../core/agents.js';
import { fetchLimits } from '../limits/fetch-limits.js';
import { makeLimitsCtx } from '../limits/make-ctx.js';
import { shouldColor } from '../limits/palette.js';
import { renderDetailed } from '../limits/render-detailed.js';
import { limitsJson, renderJson } from '../limits/render-json.js';
import { SAMPLE_NOTE, sampleOutcomes } from '../limits/sample.js';
import { renderTable } from '../limits/render-table.js';
import { errorLines, exitCodeOf, guidanceMessage, noneAvailable, noticeLines, resolveOutcomes } from '../limits/rows.js';
import { terminalSafe, terminalSafeFields } from '../core/terminal-safe.js';
import { agentLimits } from '../sources/agents.js';

/** Columns to lay out for. A pty that reports 0 columns (script(1), some CI) counts as unknown. */
export const widthOf = (io: Pick<CliIo, 'env' | 'stdout'>): number => {
  const fromEnv = Number(io.env.COLUMNS);
  const columns = io.stdout.columns;
  if (columns !== undefined && columns > 0) return columns;
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 100;
};

/**
 * `agentwatch limits`: one concurrent GET per requested agent, then the table, the detailed
 * report or JSON on stdout, `Error (<agent>): ...` lines on stderr, exit 0/1 (2 for bad flags,
 * thrown as UsageError). Reads credentials and the config (agents switched off there are left
 * out), never writes a file, never retries.
 */
export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, LIMITS_FLAGS, 'agentwatch limits');
  if (input.length > 0) throw new UsageError(`Unexpected argument "${input[0] ?? ''}" for agentwatch limits`, 'Run agentwatch limits --help');
  const explicit = flags.agent !== undefined && flags.agent !== 'all';
  // Read-only: a config file that cannot be read is said once, the defaults apply, and nothing is written.
  const loaded = await loadConfigWithNotices(io, { write: false, brokenFile: 'defaults' });
  const enabled = LIMIT_AGENTS.filter((agent) => loaded.config.agents[agent]);
  if (explicit && !enabled.includes(flags.agent as LimitAgent)) {
    throw new RuntimeError(`${flags.agent ?? ''} is disabled in ${loaded.path} (agents.${flags.agent ?? ''}: false)`);
  }
  const agents: readonly LimitAgent[] = explicit ? [flags.agent as LimitAgent] : enabled;
  if (agents.length === 0) throw new RuntimeError(`nothing to query: ${LIMIT_AGENTS.join(', ')} are all disabled in ${loaded.path}`);

  const now = Date.now();
  // --demo: generated sample windows, no request to any vendor, marked as sample everywhere.
  const outcomes = flags.demo ? sampleOutcomes(now, agents) : resolveOutcomes(await firstValueFrom(fetchLimits(makeLimitsCtx(io, { sessionsAt: sessionsAtOf(loaded.config, io.env, io.platform) }), agents, agentLimits)), explicit);
  const options = { color: shouldColor(io.env, io.stdout.isTTY), now, width: widthOf(io) };

  const report = flags.json
    ? flags.demo
      ? `${JSON.stringify({ ...limitsJson(outcomes, now), sample: true }, null, 2)}\n`
      : renderJson(outcomes, now)
    : flags.detailed
      ? renderDetailed(terminalSafeFields(outcomes), options)
      : `${renderTable(terminalSafeFields(outcomes), options)}${flags.demo ? `${SAMPLE_NOTE}\n` : ''}`;
  // A provider's text is made safe before it is colored (terminalSafeFields above).
  if (report) io.stdout.write(flags.json ? report : terminalSafe(report, { colored: options.color }));
  const errors = [...errorLines(outcomes), ...noticeLines(outcomes)];
  if (errors.length > 0) io.stderr.write(terminalSafe(`${errors.join('\n')}\n`));
  if (!explicit && noneAvailable(outcomes)) {
    const guidance = guidanceMessage(outcomes);
    io.stderr.write(terminalSafe(`agentwatch limits: ${guidance.charAt(0).toLowerCase()}${guidance.slice(1)}\n`));
  }
  return exitCodeOf(outcomes);
};
