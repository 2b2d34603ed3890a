import { existsSync } from 'node:fs';
import path from 'node:path';
import { filter, firstValueFrom, timeout } from 'rxjs';
import { DOCTOR_FLAGS } from '../cli/command-flags.js';
import { parseFlags } from '../cli/flags.js';
import { UsageError, type CliIo } from '../cli/io.js';
import { toEffective } from '../config/effective.js';
import { ConfigError } from '../config/errors.js';
import { loadConfig, passphraseProblem, type Loaded } from '../config/load.js';
import { configPath } from '../config/paths.js';
import { configSchema } from '../config/schema.js';
import { findUnknownKeys } from '../config/unknown-keys.js';
import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import type { DiagnosticEvent } from '../core/session.js';
import { checkLocation, type LocationCheck } from '../doctor/locations.js';
import { renderDoctor } from '../doctor/render.js';
import { agentReport, problemsOf, type DoctorReport } from '../doctor/report.js';
import { codexArchivedDir } from '../sources/codex/paths.js';
import { agentLocations } from './sessions-locations.js';
import { startSourcePipeline } from './pipeline-setup.js';
import { DISCOVERY_WAIT_MS } from './sessions.js';

/**
 * `agentwatch doctor [--json]` (PRODUCT.md section 9): per agent where it looked and what it
 * found, every diagnostic with file and line, config warnings (unknown keys with a suggestion),
 * and the API and webhook setup. Reads everything from the start (no discovery cache, so no
 * record is skipped unseen) and writes nothing. Exit 0 healthy, 1 when something needs the user.
 */
const COMMAND = 'agentwatch doctor';
const DATABASE_AGENTS: ReadonlySet<AgentKind> = new Set(['cursor', 'opencode', 'kilo']);

/**
 * The `projects/` folder of a `claude_dirs` entry (when any is set, they replace `~/.claude`):
 * each entry must hold one (spec 2.1), so one without it is the config's mistake, said with the entry.
 */
const fromClaudeDirs = (check: LocationCheck): LocationCheck => {
  const entry = path.dirname(check.path);
  if (check.state !== 'missing') return { ...check, config_entry: `claude_dirs: ${entry}` };
  const detail = existsSync(entry) ? `the claude_dirs entry ${entry} has no projects/ folder; each entry must contain one` : `the claude_dirs entry ${entry} does not exist`;
  return { ...check, detail, config_entry: `claude_dirs: ${entry}` };
};

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** The config as `limits` reads it (never written); an invalid one is reported and defaults are used to look further. */
const readConfig = async (io: CliIo): Promise<{ loaded: Loaded; error?: string }> => {
  try {
    return { loaded: await loadConfig(io.env, { write: false }) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const stored = configSchema.parse({});
    return { loaded: { ...toEffective(stored, io.env), path: configPath(io.env), stored, created: false }, error: error.message };
  }
};

const apiSetup = (io: CliIo, loaded: Loaded): DoctorReport['api'] => {
  const fromEnv = Boolean(io.env.AGENTWATCH_API_PASSPHRASE?.trim());
  const passphrase = loaded.config.api_passphrase;
  if (passphrase.trim() === '') return { passphrase: 'not set', note: 'agentwatch --api asks for one on its first run in a terminal (or set AGENTWATCH_API_PASSPHRASE)' };
  const problem = passphraseProblem(passphrase);
  if (problem) return { passphrase: 'too short', note: problem };
  return { passphrase: fromEnv ? 'from AGENTWATCH_API_PASSPHRASE' : 'set', note: 'agentwatch passphrase --show prints the token' };
};

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, DOCTOR_FLAGS, COMMAND);
  if (input.length > 0) throw new UsageError(`Unexpected argument "${input[0]}" for ${COMMAND}`, `Run ${COMMAND} --help`);
  const { loaded, error } = await readConfig(io);
  const enabled = AGENT_KINDS.filter((agent) => loaded.config.agents[agent]);

  const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const { pipeline, stop } = await startSourcePipeline(io, loaded, { agents: enabled, demo: false, watch: false, log: silent, cache: false });
  const diagnostics: DiagnosticEvent[] = [];
  const collecting = pipeline.diagnostics$.subscribe((d) => diagnostics.push(d));
  let state;
  try {
    state = (await firstValueFrom(pipeline.frame$.pipe(filter((frame) => frame.state.ready), timeout({ first: DISCOVERY_WAIT_MS })))).state;
  } finally {
    await stop();
    collecting.unsubscribe();
  }
  const sessions = [...state.sessions.values()];

  const agents = await Promise.all(
    AGENT_KINDS.map(async (agent) => {
      const expect = DATABASE_AGENTS.has(agent) ? 'file' : 'directory';
      const places = agentLocations(agent, loaded.config, io.env, io.platform);
      // Archived Codex threads are read too, but most people never archive one: named only when there.
      const archived = codexArchivedDir(io.env);
      if (agent === 'codex' && existsSync(archived)) places.push(archived);
      const checked = await Promise.all(places.map((place) => checkLocation(place, expect)));
      const configured = agent === 'claude' && loaded.config.claude_dirs.some((dir) => dir.trim() !== '');
      const locations = configured ? checked.map(fromClaudeDirs) : checked;
      return agentReport(agent, enabled.includes(agent), locations, sessions, diagnostics);
    }),
  );
  const partial: Omit<DoctorReport, 'healthy' | 'problems'> = {
    config: {
      path: loaded.path,
      valid: error === undefined,
      ...(error ? { error } : {}),
      warnings: loaded.warnings,
      unknown_keys: findUnknownKeys(loaded.stored),
    },
    agents,
    api: apiSetup(io, loaded),
    webhooks: [
      ...loaded.config.webhooks.map((w) => ({ name: w.name, valid: true, enabled: w.enabled, target: originOf(w.url), problems: [] })),
      ...loaded.invalidWebhooks.map((w) => ({ name: w.name, valid: false, enabled: false, target: '', problems: w.problems })),
    ],
  };
  const problems = problemsOf(partial);
  const report: DoctorReport = { healthy: problems.length === 0, problems, ...partial };
  io.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctor(report));
  return report.healthy ? 0 : 1;
};
