import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { withFileLock } from '../util/lock.js';
import { ensurePrivateDir, resolveTarget, tightenFileMode, writeFileAtomic } from '../util/fs-atomic.js';
import { toEffective, type Effective } from './effective.js';
import { ConfigError, lineColumn, parseJsonFile } from './errors.js';
import { configDir, configLockPath, configPath, type Env } from './paths.js';
import { configSchema, MIN_PASSPHRASE_LENGTH, passphraseLength, type StoredConfig } from './schema.js';
import { findUnknownKeys, unknownKeyWarning } from './unknown-keys.js';
import { keyPath } from './key-path.js';
import { depthProblem } from './depth.js';
import { firstNumberLoss } from './number-loss.js';

export interface LoadOptions {
  /**
   * Create the file on first run and back-fill missing keys (the monitor does; `limits` and
   * `--help` pass false and never write).
   */
  readonly write: boolean;
  /**
   * A stored `api_passphrase` shorter than 12 characters that no valid AGENTWATCH_API_PASSPHRASE
   * overrides: `refuse` (the default) throws ConfigError, as PRODUCT.md section 2 wants; `report`
   * loads anyway and says why in `passphraseRefused`, for `agentwatch passphrase`, which replaces
   * it, and `agentwatch doctor`, which reports it.
   */
  readonly shortPassphrase?: 'refuse' | 'report';
}

export interface Loaded extends Effective {
  readonly path: string;
  readonly stored: StoredConfig;
  /** True when this load created the file. */
  readonly created: boolean;
  /** With `shortPassphrase: 'report'`: the message a refusing load throws for the stored passphrase. */
  readonly passphraseRefused?: string;
}

const newSalt = (): string => randomBytes(24).toString('base64url');

/** Validate a parsed document; a wrongly typed value is an error naming the key and what is expected. */
export const validateStored = (file: string, raw: unknown): StoredConfig => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('E_CONFIG_INVALID', `${file}: expected a JSON object at the top level`);
  }
  const tooDeep = depthProblem(raw);
  if (tooDeep !== undefined) throw new ConfigError('E_CONFIG_INVALID', `${file}: invalid configuration: ${tooDeep}`);
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${keyPath(issue.path) || '(root)'}: ${issue.message}`);
  throw new ConfigError('E_CONFIG_INVALID', `${file}: invalid configuration: ${problems.join('; ')}`);
};

/** Keys a stored document lacks compared with a back-filled one (top level and nested objects). */
const missingKeys = (raw: Record<string, unknown>, filled: Record<string, unknown>): boolean =>
  Object.entries(filled).some(([key, value]) => {
    if (!(key in raw)) return true;
    const inner = raw[key];
    return (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      inner !== null &&
      typeof inner === 'object' &&
      !Array.isArray(inner) &&
      missingKeys(inner as Record<string, unknown>, value as Record<string, unknown>)
    );
  });

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

/** Errors meaning "this place may be read but not written": the user's choice, not a fault. */
const isReadOnlyError = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
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
  /** True when the file holds `"api_salt": ""`, which a write replaces with a generated salt. */
  readonly emptySalt: boolean;
}

const plan = (file: string, text: string | undefined): Plan => {
  const raw = text === undefined ? {} : parseJsonFile(file, text);
  const read = validateStored(file, raw);
  const needsSalt = read.api_salt === '';
  const stored = needsSalt ? { ...read, api_salt: newSalt() } : read;
  const emptySalt = text !== undefined && (raw as Record<string, unknown>).api_salt === '';
  return { text, read, stored, write: text === undefined || needsSalt || missingKeys(raw as Record<string, unknown>, stored), emptySalt };
};

/** True when AGENTWATCH_API_PASSPHRASE holds a passphrase that is used instead of the file's. */
const envOverridesPassphrase = (env: Env): boolean => {
  const value = env.AGENTWATCH_API_PASSPHRASE;
  return value !== undefined && value.trim() !== '' && passphraseProblem(value) === undefined;
};

const HOW_TO_REPLACE = 'run agentwatch passphrase to set a new one, or edit the file, or set AGENTWATCH_API_PASSPHRASE (which overrides it)';

/**
 * A stored passphrase shorter than 12 characters: refused (PRODUCT.md section 2) when it is the
 * one in use; only a warning when a valid AGENTWATCH_API_PASSPHRASE overrides it, since it is
 * never used then. The file is never changed for it (`agentwatch passphrase` replaces it).
 */
const storedPassphraseCheck = (file: string, stored: StoredConfig, env: Env): { readonly error?: string; readonly warning?: string } => {
  if (stored.api_passphrase === '' || passphraseProblem(stored.api_passphrase) === undefined) return {};
  if (envOverridesPassphrase(env)) {
    return { warning: `api_passphrase is shorter than ${MIN_PASSPHRASE_LENGTH} characters; it is not used while AGENTWATCH_API_PASSPHRASE overrides it (agentwatch passphrase sets a new one)` };
  }
  return { error: `${file}: invalid configuration: api_passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters; ${HOW_TO_REPLACE}` };
};

/** Said when a write replaced `"api_salt": ""`: the token changes with the salt. */
const SALT_GENERATED =
  'api_salt was empty: generated a new salt and saved it in the file (the API token is derived from it, so tokens made with another salt no longer work; agentwatch passphrase --show prints the current one)';

const result = (env: Env, file: string, stored: StoredConfig, created: boolean, extraWarnings: readonly string[] = []): Loaded => {
  const effective = toEffective(stored, env);
  // The stored document keeps unknown keys (schemas are loose), so typos can be named here.
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
 * and unknown keys stay), generate `api_salt` once, tighten modes. A file that is not valid JSON
 * or holds a wrongly typed value throws ConfigError and is left byte-identical.
 *
 * Reading takes no lock (writes are atomic renames); only a needed write does. A config the user
 * made read-only (the file lacks its owner write bit, or the directory cannot be written) is never
 * written: the load warns once (in `warnings`) and runs on the in-memory result. A symlinked
 * config is written through to its target, which stays where it is.
 */
export const loadConfig = async (env: Env, options: LoadOptions): Promise<Loaded> => {
  const file = configPath(env);
  const first = plan(file, await readText(file));
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
      return result(env, file, locked.stored, locked.text === undefined, locked.write && locked.emptySalt ? [SALT_GENERATED] : []);
    });
  } catch (error) {
    if (!isReadOnlyError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'EACCES';
    return result(env, file, first.stored, false, [cannotWrite(target, `${code}: the directory is not writable`)]);
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
      const current = validateStored(file, text === undefined ? {} : parseJsonFile(file, text));
      const loss = numberLossIn(text);
      if (loss !== undefined) throw new ConfigError('E_CONFIG_INVALID', `${file}: cannot save the change: ${loss}`);
      const seeded = current.api_salt === '' ? { ...current, api_salt: newSalt() } : current;
      const next = validateStored(file, change(seeded));
      // A change never stores a passphrase that is too short; one already there that it leaves
      // alone stays as the user wrote it (loadConfig says what is wrong with it).
      const problem = next.api_passphrase === current.api_passphrase || next.api_passphrase === '' ? undefined : passphraseProblem(next.api_passphrase, 'api_passphrase');
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
