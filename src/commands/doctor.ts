import { filter, firstValueFrom, timeout } from 'rxjs';
import { DOCTOR_FLAGS } from './command-flags.js';
import { parseFlags } from './flags.js';
import { UsageError, type CliIo } from '../core/io.js';
import { toEffective } from '../config/effective.js';
import { ConfigError } from '../config/errors.js';
import { loadConfig, passphraseProblem, type Loaded } from '../config/load.js';
import { configPath, sessionNamesPath } from '../config/paths.js';
import { configSchema } from '../config/schema.js';
import { loadSessionNames } from '../config/session-names.js';
import { findUnknownKeys } from '../config/unknown-keys.js';
import { AGENT_KINDS } from '../core/agents.js';
import type { DiagnosticEvent } from '../core/session.js';
import { renderDoctor } from '../doctor/render.js';
import { agentReport, problemsOf, type DoctorReport } from '../doctor/report.js';
import { checkCacheStorage, type StorageProblem } from '../doctor/storage.js';

import { checkAgentLocations } from '../doctor/sessions-locations.js';
import { startSourcePipeline } from '../app/pipeline-setup.js';
import { DISCOVERY_WAIT_MS } from './sessions.js';
import { terminalSafe } from '../core/terminal-safe.js';

/**
 * `agentwatch doctor [--json]` (docs/doctor.md): per agent where it looked and what it
 * found, every diagnostic with file and line, config warnings (unknown keys with a suggestion),
 * and the API and webhook setup. Reads everything from the start (no discovery cache, so no
 * record is skipped unseen) and writes nothing. Exit 0 healthy, 1 when something needs the user.
 */
const COMMAND = 'agentwatch doctor';

const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/**
 * The config as `limits` reads it (never written). A file that is not valid JSON is reported, and
 * what could be read of it is used to look further (its passphrase, agents and claude_dirs); the
 * rest reads as the defaults. A stored passphrase that is too short is reported as every other
 * command refuses it, but the rest of the file is used.
 */
const readConfig = async (io: CliIo): Promise<{ loaded: Loaded; error?: string }> => {
  try {
    const loaded = await loadConfig(io.env, { write: false, shortPassphrase: 'report', brokenFile: 'salvage' });
    const error = loaded.unreadable ?? loaded.passphraseRefused;
    return error === undefined ? { loaded } : { loaded, error };
  } catch (error) {
    // Only a file that cannot be read at all is left (permissions): the defaults are used to look further.
    if (!(error instanceof ConfigError)) throw error;
    const stored = configSchema.parse({});
    return { loaded: { ...toEffective(stored, io.env), path: configPath(io.env), stored, created: false }, error: error.message };
  }
};

const apiSetup = (io: CliIo, loaded: Loaded): DoctorReport['api'] => {
  const fromEnv = Boolean(io.env.AGENTWATCH_API_PASSPHRASE?.trim());
  const passphrase = loaded.config.api_passphrase;
  if (passphrase.trim() === '') return { passphrase: 'not set', note: 'agentwatch --api asks for one on its first run in a terminal (or set AGENTWATCH_API_PASSPHRASE)' };
  const problem = passphraseProblem(passphrase, fromEnv ? 'AGENTWATCH_API_PASSPHRASE' : 'api_passphrase');
  if (problem) {
    const fix = fromEnv ? 'change it where it is set' : 'agentwatch passphrase sets a new one';
    return { passphrase: 'too short', note: `${problem}; ${fix}` };
  }
  return { passphrase: fromEnv ? 'from AGENTWATCH_API_PASSPHRASE' : 'set', note: 'agentwatch passphrase --show prints the token' };
};

const optionalStorage = (problem: StorageProblem | undefined): { storage?: StorageProblem } => (problem ? { storage: problem } : {});

/** Every webhook entry, valid or not, in the order of the config file. */
const webhooksInFileOrder = (loaded: Loaded): DoctorReport['webhooks'] => {
  const invalid = new Map(loaded.invalidWebhooks.map((w) => [w.index, w]));
  const valid = [...loaded.config.webhooks];
  const entries = Array.isArray(loaded.stored.webhooks) ? loaded.stored.webhooks : [];
  return entries.flatMap((_: unknown, index): DoctorReport['webhooks'] => {
    const bad = invalid.get(index);
    if (bad) return [{ name: bad.name, valid: false, enabled: false, target: '', problems: bad.problems }];
    const w = valid.shift();
    return w ? [{ name: w.name, valid: true, enabled: w.enabled, target: originOf(w.url), problems: [] }] : [];
  });
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
      const locations = await checkAgentLocations(agent, loaded.config, io.env, io.platform);
      return agentReport(agent, enabled.includes(agent), locations, sessions, diagnostics, { excludeCwdSubstrings: loaded.config.exclude_cwd_substrings });
    }),
  );
  // Read as `sessions` reads it (never moved aside here): a damaged file loses every custom name.
  const names = await loadSessionNames(io.env);
  const partial: Omit<DoctorReport, 'healthy' | 'problems'> = {
    config: {
      path: loaded.path,
      valid: error === undefined,
      ...(error ? { error } : {}),
      warnings: loaded.warnings,
      unknown_keys: findUnknownKeys(loaded.stored),
      session_names: { path: sessionNamesPath(io.env), ...(names.problem ? { problem: names.problem } : {}) },
    },
    agents,
    api: apiSetup(io, loaded),
    webhooks: webhooksInFileOrder(loaded),
    ...optionalStorage(checkCacheStorage(io.env)),
  };
  const problems = problemsOf(partial);
  const report: DoctorReport = { healthy: problems.length === 0, problems, ...partial };
  io.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : terminalSafe(renderDoctor(report)));
  return report.healthy ? 0 : 1;
};
