import { firstValueFrom } from 'rxjs';
import { LIMITS_FLAGS } from '../cli/command-flags.js';
import { parseFlags } from '../cli/flags.js';
import { RuntimeError, UsageError, type CliIo } from '../cli/io.js';
import { loadConfigWithNotices } from '../commands/config-setup.js';
import { LIMIT_AGENTS, type LimitAgent } from '../core/agents.js';
import { REQUEST_TIMEOUT_MS, userAgentOf, type LimitsCtx } from './context.js';
import { sqliteCursorTokenRead } from './cursor-db.js';
import { fetchLimits } from './fetch-limits.js';
import { gotGet } from './http.js';
import { securityKeychainRead } from './keychain.js';
import { shouldColor } from './palette.js';
import { renderDetailed } from './render-detailed.js';
import { limitsJson, renderJson } from './render-json.js';
import { SAMPLE_NOTE, sampleOutcomes } from './sample.js';
import { renderTable } from './render-table.js';
import { errorLines, exitCodeOf, guidanceMessage, noneAvailable, resolveOutcomes } from './rows.js';
import { packageField } from '../util/package-json.js';

const FALLBACK_HOMEPAGE = 'https://github.com/agentwatch/agentwatch';

/** The project URL for the honest User-Agent, from our package.json. */
const homepage = (): string => packageField('homepage') ?? FALLBACK_HOMEPAGE;

/** The production context: real HTTP, keychain (macOS only) and Cursor's database. */
export const makeLimitsCtx = (io: Pick<CliIo, 'env' | 'platform' | 'version'>): LimitsCtx => ({
  env: io.env,
  platform: io.platform,
  now: () => Date.now(),
  timeoutMs: REQUEST_TIMEOUT_MS,
  userAgent: userAgentOf(io.version, homepage()),
  get: gotGet,
  readKeychain: securityKeychainRead,
  readCursorToken: sqliteCursorTokenRead,
});

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
  const outcomes = flags.demo ? sampleOutcomes(now, agents) : resolveOutcomes(await firstValueFrom(fetchLimits(makeLimitsCtx(io), agents)), explicit);
  const options = { color: shouldColor(io.env, io.stdout.isTTY), now, width: widthOf(io) };

  const report = flags.json
    ? flags.demo
      ? `${JSON.stringify({ ...limitsJson(outcomes, now), sample: true }, null, 2)}\n`
      : renderJson(outcomes, now)
    : flags.detailed
      ? renderDetailed(outcomes, options)
      : `${renderTable(outcomes, options)}${flags.demo ? `${SAMPLE_NOTE}\n` : ''}`;
  if (report) io.stdout.write(report);
  const errors = errorLines(outcomes);
  if (errors.length > 0) io.stderr.write(`${errors.join('\n')}\n`);
  if (!explicit && noneAvailable(outcomes)) io.stderr.write(`${guidanceMessage(outcomes)}\n`);
  return exitCodeOf(outcomes);
};
