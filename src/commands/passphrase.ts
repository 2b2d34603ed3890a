import { configPath } from '../config/paths.js';
import { PASSPHRASE_FLAGS } from '../cli/command-flags.js';
import { parseFlags } from '../cli/flags.js';
import { RuntimeError, UsageError, type CliIo } from '../cli/io.js';
import { canPrompt } from '../cli/prompt.js';
import { loadConfigWithNotices } from './config-setup.js';
import { askNewPassphrase, currentToken, saveNewPassphrase } from '../sinks/http/passphrase-flow.js';

/**
 * `agentwatch passphrase`: set or rotate the API passphrase (asked twice, hidden) and print the
 * new token once on stderr. `--show` prints the current token on stdout for scripts.
 */

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, PASSPHRASE_FLAGS, 'agentwatch passphrase');
  if (input.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(input[0])}: the passphrase is read from the terminal, never from arguments`);

  // Read first, for its notices and so a broken config is said before any question.
  const loaded = await loadConfigWithNotices(io, { write: false });
  if (flags.show) {
    const { token, fromEnv } = await currentToken(io.env, loaded);
    if (fromEnv) io.stderr.write('agentwatch: token of AGENTWATCH_API_PASSPHRASE (it overrides the config file)\n');
    io.stdout.write(`${token}\n`);
    return 0;
  }

  if (!canPrompt(io)) {
    throw new RuntimeError(
      `agentwatch passphrase needs a terminal to read the new passphrase; set AGENTWATCH_API_PASSPHRASE or edit api_passphrase in ${configPath(io.env)}`,
    );
  }
  await saveNewPassphrase(io, await askNewPassphrase(io));
  io.stderr.write('Restart a running agentwatch --api for the new token to take effect.\n');
  return 0;
};
