import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { withFileLock } from '../util/lock.js';
import { ensurePrivateDir, resolveTarget, tightenFileMode, writeFileAtomic } from '../util/fs-atomic.js';
import { toEffective, type Effective } from './effective.js';
import { ConfigError, lineColumn, parseJsonFile } from './errors.js';
import { configDir, configLockPath, configPath, type Env } from './paths.js';
import { MIN_PASSPHRASE_LENGTH, passphraseLength, type StoredConfig } from './schema.js';
import { findUnknownKeys, unknownKeyWarning } from './unknown-keys.js';
import { depthProblem } from './depth.js';
import { backFill } from './back-fill.js';
import { storageFault } from '../util/storage-fault.js';
import { firstNumberLoss } from './number-loss.js';

export interface LoadOptions {
  /**
   * Create the file on first run and back-fill missing keys (the monitor does; `limits` and
   * `--help` pass false and never write).
   */
  readonly write: boolean;
  /**
   * A stored `api_passphrase` shorter than 12 characters that no valid AGENTWATCH_API_PASSPHRASE
   * overrides: `refuse` (the default) throws ConfigError, as docs/configuration.md says; `report`
   * loads anyway and says why in `passphraseRefused`, for `agentwatch passphrase`, which replaces
   * it, and `agentwatch doctor`, which reports it.
   */
  readonly shortPassphrase?: 'refuse' | 'report';
  /**
   * A file with no document to read (not JSON, not an object, nested too deeply): `refuse` (the
   * default) throws ConfigError; `defaults` runs on the defaults, for the commands that only read
   * it (`sessions`, `search`, `limits`); `salvage` runs on what could be read of it, for `doctor`.
   * Either way it is never written, and `unreadable` says why.
   */
  readonly brokenFile?: 'refuse' | 'defaults' | 'salvage';
}

export interface Loaded extends Effective {
  readonly path: string;
  readonly stored: StoredConfig;
  /** True when this load created the file. */
  readonly created: boolean;
  /** With `shortPassphrase: 'report'`: the message a refusing load throws for the stored passphrase. */
  readonly passphraseRefused?: string;
  /** With `brokenFile` other than `refuse`: why the file could not be read (ConfigError's message). */
  readonly unreadable?: string;
}

const newSalt = (): string => randomBytes(24).toString('base64url');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The document a file holds, or a ConfigError when there is none to read: text that is not JSON,
 * JSON that is not an object, or one nested too deeply to write back. An empty (or blank) file
 * holds no keys. Any value of any key is read: the schema judges each key on its own.
 */
const readDocument = (file: string, text: string): Record<string, unknown> => {
  if (text.replace(/^\uFEFF/, '').trim() === '') return {};
  const raw = parseJsonFile(file, text);
  if (!isObject(raw)) throw new ConfigError('E_CONFIG_INVALID', `${file}: expected a JSON object at the top level`);
  const tooDeep = depthProblem(raw);
  if (tooDeep !== undefined) throw new ConfigError('E_CONFIG_INVALID', `${file}: invalid configuration: ${tooDeep}`);
  return raw;
};

const serialize = (config: Record<string, unknown>): string => `${JSON.stringify(config, null, 2)}\n`;

const readText = async (file: string): Promise<string | undefined> => {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: a file where the config directory belongs; creating it will say so.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError('E_CONFIG_IO', `${file}: cannot read: ${(error as Error).message}`);
  }
};

/** The config directory, created 0700; a failure (a file in its place) is a ConfigError naming it. */
const ensureConfigDir = async (env: Env): Promise<void> => {
  const dir = configDir(env);
  try {
    await ensurePrivateDir(dir);
  } catch (error) {
    if (isReadOnlyError(error)) throw error;
    throw new ConfigError('E_CONFIG_IO', `${dir}: cannot create the config directory: ${(error as Error).message}`);
  }
};

/** Errors meaning "this place may be read but not written" (the user's choice, or a full disk): not a fault of the file. */
const isReadOnlyError = (error: unknown): boolean => {
  const fault = storageFault(error);
  return fault === 'read-only' || fault === 'denied' || fault === 'full';
};

/** The file's permission bits, or undefined when it does not exist. */
const fileMode = async (file: string): Promise<number | undefined> => {
  try {
    return (await fs.stat(file)).mode & 0o777;
  } catch {
    return undefined;
  }
};

interface Plan {
  readonly text: string | undefined;
  /** The document as read (back-filled in memory, no salt generated). */
  readonly read: StoredConfig;
  /** What the file should hold: `read` plus a generated `api_salt` when it has none. */
  readonly stored: StoredConfig;
  /** True when the file must be written (created, salt, back-fill). */
  readonly write: boolean;
  /** How the file held `api_salt` when a write replaces it: `""`, or a value that is not a string. */
  readonly replacedSalt?: 'empty' | 'invalid';
}

const plan = (file: string, text: string | undefined): Plan => {
  const raw = text === undefined ? {} : readDocument(file, text);
  const { filled, missing } = backFill(raw);
  const salt = filled.api_salt;
  const needsSalt = typeof salt !== 'string' || salt === '';
  const stored = needsSalt ? { ...filled, api_salt: newSalt() } : filled;
  const replacedSalt = text === undefined || !('api_salt' in raw) || !needsSalt ? undefined : salt === '' ? 'empty' : 'invalid';
  return { text, read: filled, stored, write: text === undefined || needsSalt || missing, ...(replacedSalt ? { replacedSalt } : {}) };
};

/** True when AGENTWATCH_API_PASSPHRASE holds a passphrase that is used instead of the file's. */
const envOverridesPassphrase = (env: Env): boolean => {
  const value = env.AGENTWATCH_API_PASSPHRASE;
  return value !== undefined && value.trim() !== '' && passphraseProblem(value) === undefined;
};

const HOW_TO_REPLACE = 'run agentwatch passphrase to set a new one, or edit the file, or set AGENTWATCH_API_PASSPHRASE (which overrides it)';

/**
 * A stored passphrase shorter than 12 characters: refused when it is the one in use (the token
 * derived from it would be easy to guess); only a warning when a valid AGENTWATCH_API_PASSPHRASE
 * overrides it, since it is never used then. The file is never changed for it (`agentwatch passphrase` replaces it).
 */
const storedPassphraseCheck = (file: string, stored: StoredConfig, env: Env): { readonly error?: string; readonly warning?: string } => {
  // One that is not a string reads as none (the schema's fallback), with its own warning.
  const passphrase = stored.api_passphrase;
  if (typeof passphrase !== 'string' || passphrase === '' || passphraseProblem(passphrase) === undefined) return {};
  if (envOverridesPassphrase(env)) {
    return { warning: `api_passphrase is shorter than ${MIN_PASSPHRASE_LENGTH} characters; it is not used while AGENTWATCH_API_PASSPHRASE overrides it (agentwatch passphrase sets a new one)` };
  }
  return { error: `${file}: invalid configuration: api_passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters; ${HOW_TO_REPLACE}` };
};

/** Said when a write replaced `"api_salt": ""` (or a salt that is not a string): the token changes with the salt. */
const saltGenerated = (how: 'empty' | 'invalid'): string =>
  `api_salt was ${how === 'empty' ? 'empty' : 'not a string'}: generated a new salt and saved it in the file (the API token is derived from it, so tokens made with another salt no longer work; agentwatch passphrase --show prints the current one)`;

const result = (env: Env, file: string, stored: StoredConfig, created: boolean, extraWarnings: readonly string[] = []): Loaded => {
  const effective = toEffective(stored, env);
  // The stored document keeps unknown keys (the schema reads only its own), so typos can be named here.
  const unknown = findUnknownKeys(stored).map(unknownKeyWarning);
  const warnings = [...effective.warnings, ...unknown, ...extraWarnings];
  return {
    ...effective,
    warnings,
    path: file,
    stored,
    created,
  };
};

/** Why rewriting `text` would change a number the user wrote (number-loss.ts), as `line 3, column 12: ...`, or undefined. */
const numberLossIn = (text: string | undefined): string | undefined => {
  if (text === undefined) return undefined;
  const loss = firstNumberLoss(text);
  if (loss === undefined) return undefined;
  const { line, column } = lineColumn(text, loss.offset);
  return `line ${line}, column ${column}: the number ${loss.literal} would be saved as ${loss.written}, beyond what a JSON number keeps exactly; write it as a string to keep it`;
};

const cannotWrite = (target: string, why: string): string =>
  `cannot write the back-filled config to ${target} (${why}); running on in-memory defaults for the missing keys` +
  ' (a generated api_salt changes on every start until the file can be written)';

/**
 * Load the config: create it with defaults on first run, back-fill missing keys (existing values
 * and unknown keys stay), generate `api_salt` once, tighten modes. A value a key does not take
 * reads as the key's fallback, with a warning, and stays in the file as written. A file that is
 * not valid JSON (or not an object, or nested too deeply) throws ConfigError and is left
 * byte-identical, unless `brokenFile` says to run without it.
 *
 * Reading takes no lock (writes are atomic renames); only a needed write does. A config the user
 * made read-only (the file lacks its owner write bit, or the directory cannot be written) is never
 * written: the load warns once (in `warnings`) and runs on the in-memory result. A symlinked
 * config is written through to its target, which stays where it is.
 */
export const loadConfig = async (env: Env, options: LoadOptions): Promise<Loaded> => {
  const file = configPath(env);
  const text = await readText(file);
  let first: Plan;
  try {
    first = plan(file, text);
  } catch (error) {
    const broken = options.brokenFile ?? 'refuse';
    if (!(error instanceof ConfigError) || error.code === 'E_CONFIG_IO' || broken === 'refuse') throw error;
    const salvaged = broken === 'salvage' && isObject(error.salvaged) && depthProblem(error.salvaged) === undefined ? error.salvaged : {};
    const { filled } = backFill(salvaged);
    const loaded = await loadPlanned(env, file, { text, read: filled, stored: filled, write: false }, { ...options, write: false });
    return { ...loaded, unreadable: error.message };
  }
  return loadPlanned(env, file, first, options);
};

const loadPlanned = async (env: Env, file: string, first: Plan, options: LoadOptions): Promise<Loaded> => {
  // Before any write: a refused file stays byte-identical.
  const passphrase = storedPassphraseCheck(file, first.read, env);
  if (passphrase.error !== undefined && options.shortPassphrase !== 'report') throw new ConfigError('E_CONFIG_INVALID', passphrase.error);
  const loaded = await loadChecked(env, file, first, options);
  const withWarning = passphrase.warning === undefined ? loaded : { ...loaded, warnings: [...loaded.warnings, passphrase.warning] };
  return passphrase.error === undefined ? withWarning : { ...withWarning, passphraseRefused: passphrase.error };
};

const loadChecked = async (env: Env, file: string, first: Plan, options: LoadOptions): Promise<Loaded> => {
  if (!options.write) return result(env, file, first.read, false);
  if (!first.write) {
    // The file and its directory, as a write tightens them (0600 in 0700). Best effort: what
    // someone else owns stays as it is.
    await tightenFileMode(file).catch(() => undefined);
    await ensurePrivateDir(configDir(env)).catch(() => undefined);
    return result(env, file, first.stored, false);
  }
  const target = await resolveTarget(file);
  const mode = await fileMode(target);
  if (mode !== undefined && (mode & 0o200) === 0) {
    return result(env, file, first.stored, false, [cannotWrite(target, `the file is read-only, mode 0${mode.toString(8)}`)]);
  }
  try {
    await ensureConfigDir(env);
    return await withFileLock(configLockPath(env), async () => {
      // Re-read under the lock: another process may have written it meanwhile.
      const locked = plan(file, await readText(file));
      // Never a back-fill that changes what the user wrote elsewhere in the file.
      const loss = locked.write ? numberLossIn(locked.text) : undefined;
      if (loss !== undefined) return result(env, file, locked.stored, false, [cannotWrite(target, loss)]);
      if (locked.write) await writeFileAtomic(file, serialize(locked.stored));
      else await tightenFileMode(file).catch(() => undefined);
      // A salt replaced behind the user's back would silently change their token: said once, when written.
      return result(env, file, locked.stored, locked.text === undefined, locked.write && locked.replacedSalt ? [saltGenerated(locked.replacedSalt)] : []);
    });
  } catch (error) {
    if (!isReadOnlyError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'EACCES';
    return result(env, file, first.stored, false, [cannotWrite(target, `${code}: ${storageFault(error) === 'full' ? 'the disk is full' : 'the directory is not writable'}`)]);
  }
};

/**
 * Read-modify-write of the stored config under the lock (passphrase rotation, Settings panel).
 * `change` gets the current stored document and returns the new one; it is validated before writing.
 */
export const updateConfig = async (
  env: Env,
  change: (stored: StoredConfig) => StoredConfig,
): Promise<Loaded> => {
  const file = configPath(env);
  // A config the user made read-only is theirs to unlock: say so rather than replace it.
  const target = await resolveTarget(file);
  const mode = await fileMode(target);
  if (mode !== undefined && (mode & 0o200) === 0) {
    throw new ConfigError('E_CONFIG_IO', `${target}: cannot save the change: the file is read-only (mode 0${mode.toString(8)}); make it writable first`);
  }
  try {
    await ensureConfigDir(env);
    return await withFileLock(configLockPath(env), async () => {
      const text = await readText(file);
      // Values the file holds that their keys do not take stay as written: the change is checked
      // before it gets here (PUT /api/config), and the rest of the file is the user's.
      const current = backFill(text === undefined ? {} : readDocument(file, text)).filled;
      const loss = numberLossIn(text);
      if (loss !== undefined) throw new ConfigError('E_CONFIG_INVALID', `${file}: cannot save the change: ${loss}`);
      const salt = current.api_salt;
      const seeded = typeof salt !== 'string' || salt === '' ? { ...current, api_salt: newSalt() } : current;
      const next = change(seeded);
      const tooDeep = depthProblem(next);
      if (tooDeep !== undefined) throw new ConfigError('E_CONFIG_INVALID', `${file}: invalid configuration: ${tooDeep}`);
      // A change never stores a passphrase that is too short; one already there that it leaves
      // alone stays as the user wrote it (loadConfig says what is wrong with it).
      const passphrase = next.api_passphrase;
      const problem = passphrase === current.api_passphrase || passphrase === '' ? undefined : typeof passphrase === 'string' ? passphraseProblem(passphrase, 'api_passphrase') : 'api_passphrase must be a string';
      if (problem) throw new ConfigError('E_CONFIG_INVALID', `${file}: invalid configuration: ${problem}`);
      await writeFileAtomic(file, serialize(next));
      return { ...toEffective(next, env), path: file, stored: next, created: text === undefined };
    });
  } catch (error) {
    if (!isReadOnlyError(error)) throw error;
    throw new ConfigError('E_CONFIG_IO', `${configDir(env)}: cannot save the change: ${(error as Error).message}`);
  }
};

/** Why a passphrase is refused, or undefined when it is acceptable. */
export const passphraseProblem = (passphrase: string, name = 'the passphrase'): string | undefined =>
  passphraseLength(passphrase) < MIN_PASSPHRASE_LENGTH
    ? `${name} must be at least ${MIN_PASSPHRASE_LENGTH} characters`
    : undefined;
