import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { MONITOR_FLAGS } from './command-flags.js';
import { parseFlags } from './flags.js';
import { UsageError, type CliIo } from '../core/io.js';
import { parseHostFlag, type ListenAddress } from '../sinks/http/address.js';
import { isLocalAddress } from '../sinks/http/local-address.js';
import { COMMAND_NAMES } from './names.js';
import { closest } from '../util/closest.js';
import { loadConfigWithNotices, pickAgents } from '../app/config-setup.js';
import type { Mode } from '../app/contracts.js';
import { modeRunners, runMonitor } from '../app/monitor.js';

/**
 * `agentwatch [--tui] [--api] [--gui] [--host ADDR] [--agent NAME|all] [--demo]`: the flags, the
 * config and the agents; the monitor itself is wired in app/monitor.ts.
 *
 * Only what comes before the API's socket listens is imported statically (the flags, the config).
 */

/** Pure: the modes the flags ask for; no mode flag means the TUI. */
export const selectModes = (flags: { readonly tui: boolean; readonly api: boolean; readonly gui: boolean }): Mode[] => {
  const modes = (['tui', 'api', 'gui'] as const).filter((mode) => flags[mode]);
  return modes.length === 0 ? ['tui'] : modes;
};

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, MONITOR_FLAGS, 'agentwatch');
  if (input.length > 0) {
    // A command after a flag (`agentwatch --api limts`): the same suggestion as in first place.
    const word = input[0] ?? '';
    const guess = closest(word, COMMAND_NAMES);
    throw new UsageError(`unknown command "${word}"${guess ? ` (did you mean "agentwatch ${guess}"?)` : ''}`);
  }
  // `--no-open` and `--host` without the mode they go with were refused by parseFlags (`requires`).
  const modes = selectModes(flags);
  const runners = modeRunners(modes);
  let address: ListenAddress | undefined;
  if (flags.host !== undefined) {
    const parsed = parseHostFlag(flags.host);
    if ('error' in parsed) throw new UsageError(parsed.error);
    // A name that does not resolve is a typo, said as one (not a raw getaddrinfo error at listen);
    // an address of another machine too (not a raw EADDRNOTAVAIL once the sources are running).
    const hint = 'Use an address of this machine, e.g. --host 127.0.0.1:7421';
    let addresses = [parsed.host];
    if (isIP(parsed.host) === 0) {
      try {
        addresses = (await lookup(parsed.host, { all: true })).map((found) => found.address);
      } catch {
        throw new UsageError(`Invalid value for --host: ${JSON.stringify(flags.host)} (no such host name: ${parsed.host})`, hint);
      }
    }
    if (!addresses.some((address) => isLocalAddress(address))) {
      const resolved = isIP(parsed.host) === 0 ? ` (${parsed.host} is ${addresses.join(', ')})` : '';
      throw new UsageError(`Invalid value for --host: ${JSON.stringify(flags.host)} is not an address of this machine${resolved}`, hint);
    }
    address = parsed;
  }

  const loaded = await loadConfigWithNotices(io);
  const agents = pickAgents(io, loaded, flags.agent, 'refuse');
  return runMonitor(io, { flags, modes, runners, address, loaded, agents });
};
