import { loadConfig, passphraseProblem, updateConfig, type Loaded } from '../../config/load.js';
import { configPath, type Env } from '../../config/paths.js';
import { RuntimeError, type CliIo } from '../../core/io.js';
import { readHidden } from '../../util/prompt.js';
import { deriveToken } from '../../sinks/http/token.js';

/**
 * Setting and reading the API passphrase, shared by `agentwatch passphrase` and the first
 * interactive `agentwatch --api` run.
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
  const token = await deriveToken(passphrase, saved.config.api_salt);
  io.stderr.write(`Saved the API passphrase to ${saved.path}.\nAPI token (shown once; \`agentwatch passphrase --show\` prints it again):\n${token}\n`);
  if (io.env.AGENTWATCH_API_PASSPHRASE?.trim()) {
    io.stderr.write('agentwatch: note: AGENTWATCH_API_PASSPHRASE is set and overrides the saved passphrase while it is\n');
  }
  return { token, salt: saved.config.api_salt };
};

/** The token of the effective passphrase of `read` (a read-only load); RuntimeError when none is configured or it is too short. */
export const currentToken = async (env: Env, read: Loaded): Promise<{ token: string; fromEnv: boolean }> => {
  let loaded = read;
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
