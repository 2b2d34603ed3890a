import { RuntimeError, UsageError, type CliIo } from '../core/io.js';
import { loadConfig, type Loaded, type LoadOptions } from '../config/load.js';
import { configNotices } from '../config/notices.js';
import { AGENT_KINDS, isAgentKind, type AgentKind } from '../core/agents.js';
import type { Logger } from '../core/contracts.js';
import { terminalSafe } from '../core/terminal-safe.js';
import { usePriceOverrides } from '../streams/cost.js';

/**
 * What every command does before its real work: load the config (printing its notices), pick the
 * agents, log to stderr. Kept free of rxjs and the pipeline so the monitor's API can listen right
 * after it, before the rest has loaded (docs/api.md).
 */

/**
 * Loads (and, first time, writes) the config and prints its notices to stderr: every command that
 * reads the config says the same about it (unknown keys, fallbacks), and never on stdout.
 * `write: false` for the commands that only read it (limits, webhooks, passphrase --show).
 */
export const loadConfigWithNotices = async (io: CliIo, options: LoadOptions = { write: true }): Promise<Loaded> => {
  const loaded = await loadConfig(io.env, options);
  for (const line of configNotices(loaded.path, loaded)) io.stderr.write(terminalSafe(`${line}\n`));
  usePriceOverrides(loaded.config.prices);
  return loaded;
};

/** `info: false` keeps one-shot commands quiet on stderr; warnings and errors always show. */
export const stderrLogger = (io: CliIo, options: { readonly info: boolean }): Logger => ({
  info: options.info ? (message) => io.stderr.write(terminalSafe(`agentwatch: ${message}\n`)) : () => undefined,
  warn: (message) => io.stderr.write(terminalSafe(`agentwatch: ${message}\n`)),
  error: (message) => io.stderr.write(terminalSafe(`agentwatch: error: ${message}\n`)),
});

/**
 * What asking for a disabled agent by `--agent` does: `refuse` fails the command (exit 1, the
 * monitor), `skip` says so on stderr and picks none (`sessions` still prints its empty result).
 */
export type DisabledAgentPolicy = 'refuse' | 'skip';

/** Enabled agents: config `agents`, narrowed by `--agent` (`all` or absent = every enabled one). */
export const pickAgents = (io: CliIo, loaded: Loaded, agentFlag: string | undefined, onDisabled: DisabledAgentPolicy): AgentKind[] => {
  const enabled = AGENT_KINDS.filter((agent) => loaded.config.agents[agent]);
  if (agentFlag === undefined || agentFlag === 'all') return enabled;
  if (!isAgentKind(agentFlag)) throw new UsageError(`Invalid value for --agent: ${JSON.stringify(agentFlag)}`);
  if (enabled.includes(agentFlag)) return [agentFlag];
  const disabled = `${agentFlag} is disabled in ${loaded.path} (agents.${agentFlag}: false)`;
  if (onDisabled === 'refuse') throw new RuntimeError(disabled);
  io.stderr.write(terminalSafe(`agentwatch: ${disabled}; nothing to list\n`));
  return [];
};
