import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { withFileLock } from '../util/lock.js';
import { ensurePrivateDir, tightenFileMode, writeFileAtomic } from '../util/fs-atomic.js';
import { toEffective, type Effective } from './effective.js';
import { ConfigError, parseJsonFile } from './errors.js';
import { configDir, configLockPath, configPath, type Env } from './paths.js';
import { configSchema, MIN_PASSPHRASE_LENGTH, type StoredConfig } from './schema.js';

export interface LoadOptions {
  /**
   * Create the file on first run and back-fill missing keys (the monitor does; `limits` and
   * `--help` pass false and never write).
   */
  readonly write: boolean;
}

export interface Loaded extends Effective {
  readonly path: string;
  readonly stored: StoredConfig;
  /** True when this load created the file. */
  readonly created: boolean;
}

const newSalt = (): string => randomBytes(24).toString('base64url');

/** Validate a parsed document; a wrongly typed value is an error naming the key and what is expected. */
export const validateStored = (file: string, raw: unknown): StoredConfig => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('E_CONFIG_INVALID', `${file}: expected a JSON object at the top level`);
  }
  const parsed = configSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError('E_CONFIG_IO', `${file}: cannot read: ${(error as Error).message}`);
  }
};

/** The config directory, created 0700; a failure (a file in its place) is a ConfigError naming it. */
const ensureConfigDir = async (env: Env): Promise<void> => {
  const dir = configDir(env);
  try {
    await ensurePrivateDir(dir);
  } catch (error) {
    throw new ConfigError('E_CONFIG_IO', `${dir}: cannot create the config directory: ${(error as Error).message}`);
  }
};

/**
 * Load the config: create it with defaults on first run, back-fill missing keys (existing values
 * and unknown keys stay), generate `api_salt` once, tighten modes. A file that is not valid JSON
 * or holds a wrongly typed value throws ConfigError and is left byte-identical.
 */
export const loadConfig = async (env: Env, options: LoadOptions): Promise<Loaded> => {
  const file = configPath(env);
  if (!options.write) {
    const text = await readText(file);
    const stored = validateStored(file, text === undefined ? {} : parseJsonFile(file, text));
    return { ...toEffective(stored, env), path: file, stored, created: false };
  }
  await ensureConfigDir(env);
  return withFileLock(configLockPath(env), async () => {
    const text = await readText(file);
    const raw = text === undefined ? {} : parseJsonFile(file, text);
    let stored = validateStored(file, raw);
    const needsSalt = stored.api_salt === '';
    if (needsSalt) stored = { ...stored, api_salt: newSalt() };
    if (text === undefined || needsSalt || missingKeys(raw as Record<string, unknown>, stored)) {
      await writeFileAtomic(file, serialize(stored));
    } else {
      await tightenFileMode(file);
    }
    return { ...toEffective(stored, env), path: file, stored, created: text === undefined };
  });
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
  await ensureConfigDir(env);
  return withFileLock(configLockPath(env), async () => {
    const text = await readText(file);
    const current = validateStored(file, text === undefined ? {} : parseJsonFile(file, text));
    const seeded = current.api_salt === '' ? { ...current, api_salt: newSalt() } : current;
    const next = validateStored(file, change(seeded));
    await writeFileAtomic(file, serialize(next));
    return { ...toEffective(next, env), path: file, stored: next, created: text === undefined };
  });
};

/** Why a passphrase is refused, or undefined when it is acceptable. */
export const passphraseProblem = (passphrase: string): string | undefined =>
  passphrase.trim().length < MIN_PASSPHRASE_LENGTH
    ? `the passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`
    : undefined;
