import { loadConfig, passphraseProblem, updateConfig } from '../config/load.js';
import { configPath, type Env } from '../config/paths.js';
import { parseFlags } from '../cli/flags.js';
import { RuntimeError, UsageError, type CliIo } from '../cli/io.js';
import { canPrompt, readHidden } from '../cli/prompt.js';
import { deriveToken } from '../sinks/http/token.js';

/**
 * `agentwatch passphrase`: set or rotate the API passphrase (asked twice, hidden) and print the
 * new token once on stderr. `--show` prints the current token on stdout for scripts.
 */

const ATTEMPTS = 3;

/** Ask for a new passphrase twice until both entries agree and it is long enough. */
export const askNewPassphrase = async (io: Pick<CliIo, 'stdin' | 'stderr'>): Promise<string> => {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const first = await readHidden(io, 'New API passphrase (at least 12 characters): ');
    const problem = passphraseProblem(first);
    if (problem) {
      io.stderr.write(`agentwatch: ${problem}\n`);
      continue;
    }
    const second = await readHidden(io, 'Repeat the passphrase: ');
    if (second.trim() === first.trim()) return first.trim();
    io.stderr.write('agentwatch: the two entries differ\n');
  }
  throw new RuntimeError(`no passphrase set after ${ATTEMPTS} attempts`);
};

/**
 * Save a new passphrase into the config (under the config lock, other keys kept) and print the
 * token it yields once, on stderr. Returns the token and the salt it was derived with.
 */
export const saveNewPassphrase = async (io: Pick<CliIo, 'env' | 'stderr'>, passphrase: string): Promise<{ token: string; salt: string }> => {
  const saved = await updateConfig(io.env, (stored) => ({ ...stored, api_passphrase: passphrase }));
  const token = await deriveToken(passphrase, saved.stored.api_salt);
  io.stderr.write(`Saved the API passphrase to ${saved.path}.\nAPI token (shown once; \`agentwatch passphrase --show\` prints it again):\n${token}\n`);
  if (io.env.AGENTWATCH_API_PASSPHRASE?.trim()) {
    io.stderr.write('agentwatch: note: AGENTWATCH_API_PASSPHRASE is set and overrides the saved passphrase while it is\n');
  }
  return { token, salt: saved.stored.api_salt };
};

/** The token of the effective passphrase; RuntimeError when none is configured or it is too short. */
export const currentToken = async (env: Env): Promise<{ token: string; fromEnv: boolean }> => {
  let loaded = await loadConfig(env, { write: false });
  const passphrase = loaded.config.api_passphrase;
  const fromEnv = Boolean(env.AGENTWATCH_API_PASSPHRASE?.trim());
  if (passphrase.trim() === '') {
    throw new RuntimeError(`no API passphrase is configured (${configPath(env)}): run agentwatch passphrase, or set AGENTWATCH_API_PASSPHRASE`);
  }
  const problem = passphraseProblem(passphrase);
  if (problem) throw new RuntimeError(`${fromEnv ? 'AGENTWATCH_API_PASSPHRASE' : 'api_passphrase'}: ${problem}`);
  // The salt is generated on the first write of the config; the token needs it.
  if (loaded.config.api_salt === '') loaded = await loadConfig(env, { write: true });
  return { token: await deriveToken(passphrase, loaded.config.api_salt), fromEnv };
};

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, { show: { type: 'boolean' } } as const, 'agentwatch passphrase');
  if (input.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(input[0])}: the passphrase is read from the terminal, never from arguments`);

  if (flags.show) {
    const { token, fromEnv } = await currentToken(io.env);
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
