import { configPath } from '../config/paths.js';
import { PASSPHRASE_FLAGS } from './command-flags.js';
import { parseFlags } from './flags.js';
import { RuntimeError, UsageError, type CliIo } from '../core/io.js';
import { canPrompt } from '../util/prompt.js';
import { loadConfig, type Loaded } from '../config/load.js';
import { configNotices } from '../config/notices.js';
import { MIN_PASSPHRASE_LENGTH } from '../config/schema.js';
import { loadConfigWithNotices } from '../app/config-setup.js';
import { askNewPassphrase, currentToken, saveNewPassphrase } from '../app/modes/passphrase-flow.js';
import { terminalSafe } from '../core/terminal-safe.js';

/**
 * `agentwatch passphrase`: set or rotate the API passphrase (asked twice, hidden) and print the
 * new token once on stderr. `--show` prints the current token on stdout for scripts.
 *
 * A stored passphrase that is too short does not stop this command as it stops the others: it is
 * how a new one is set. `--show` says that the stored one gives no token.
 */

/**
 * The config as `--show` derives the token from: a file whose `"api_salt": ""` must get its salt
 * written first (the token needs one), with the notice that says so, once.
 */
const withSalt = async (io: CliIo, read: Loaded): Promise<Loaded> => {
  if (read.config.api_salt !== '' || read.config.api_passphrase.trim() === '') return read;
  const written = await loadConfig(io.env, { write: true, shortPassphrase: 'report' });
  for (const line of configNotices(written.path, { warnings: written.warnings.filter((w) => !read.warnings.includes(w)), invalidWebhooks: [] })) io.stderr.write(terminalSafe(`${line}\n`));
  return written;
};

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, PASSPHRASE_FLAGS, 'agentwatch passphrase');
  if (input.length > 0) {
    throw new UsageError(`unexpected argument ${JSON.stringify(input[0])}: the passphrase is read from the terminal, never from arguments`, 'Run agentwatch passphrase --help');
  }

  // Read first, for its notices and so a broken config is said before any question.
  const loaded = await loadConfigWithNotices(io, { write: false, shortPassphrase: 'report' });
  if (flags.show) {
    if (loaded.passphraseRefused !== undefined) {
      throw new RuntimeError(
        `${loaded.path}: api_passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters, so it gives no token to show; run agentwatch passphrase to set a new one (or set AGENTWATCH_API_PASSPHRASE, which overrides it)`,
      );
    }
    const { token, fromEnv } = await currentToken(io.env, await withSalt(io, loaded));
    if (fromEnv) io.stderr.write('agentwatch: token of AGENTWATCH_API_PASSPHRASE (it overrides the config file)\n');
    io.stdout.write(`${token}\n`);
    return 0;
  }

  if (!canPrompt(io)) {
    throw new RuntimeError(
      `agentwatch passphrase needs a terminal to read the new passphrase; set AGENTWATCH_API_PASSPHRASE or edit api_passphrase in ${configPath(io.env)}`,
    );
  }
  if (loaded.passphraseRefused !== undefined) {
    io.stderr.write(`agentwatch: the api_passphrase in ${loaded.path} is shorter than ${MIN_PASSPHRASE_LENGTH} characters; the one you enter now replaces it\n`);
  }
  await saveNewPassphrase(io, await askNewPassphrase(io));
  io.stderr.write('Restart a running agentwatch --api for the new token to take effect.\n');
  return 0;
};
