import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { withFileLock } from '../util/lock.js';
import { ensurePrivateDir, writeFileAtomic } from '../util/fs-atomic.js';
import { nameCharactersProblem } from '../core/name-characters.js';
import { configDir, configLockPath, sessionNamesPath, type Env } from './paths.js';

/**
 * `session-names.json`: `{ "<session id>": "<custom name>" }`, the format lazyagent uses, so a
 * names file carried over from it keeps working. Every write goes through the config lock.
 */
const namesSchema = z.record(z.string(), z.string());

export type SessionNames = Readonly<Record<string, string>>;

export interface NamesLoad {
  readonly names: SessionNames;
  /** Set when the file was unreadable: where the damaged file was moved, for the user. */
  readonly problem?: string;
}

const parseNames = (text: string): SessionNames | undefined => {
  try {
    const raw: unknown = JSON.parse(text);
    // Checked, then kept as parsed: zod's copy would drop a `"__proto__"` entry, and the next
    // rename would write the file without it.
    return namesSchema.safeParse(raw).success ? (raw as SessionNames) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A damaged names file is moved aside (never deleted or overwritten) so the user can recover it;
 * the caller reports `problem` and continues with no names.
 */
const setAside = async (file: string): Promise<string> => {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(file, aside);
  return `${file} is not a JSON object of names; moved it to ${aside} and started with no custom names`;
};

const readNames = async (file: string, moveAsideIfCorrupt: boolean): Promise<NamesLoad> => {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { names: {} };
    return { names: {}, problem: `${file}: cannot read: ${(error as Error).message}` };
  }
  if (text.trim() === '') return { names: {} };
  const names = parseNames(text);
  if (names) return { names };
  // Read-only readers (sessions, search, doctor) leave it where it is: the next rename moves it aside.
  if (!moveAsideIfCorrupt) return { names: {}, problem: `${file} is not a JSON object of names; ignoring it (custom names are not shown until it is fixed; the next rename moves it aside)` };
  return { names: {}, problem: await setAside(file) };
};

/** Read the names (no lock needed: writes are atomic renames). A corrupt file is reported, not moved. */
export const loadSessionNames = (env: Env): Promise<NamesLoad> => readNames(sessionNamesPath(env), false);

/**
 * Set (non-empty `name`) or clear (empty/undefined) one session's custom name, under the lock,
 * re-reading the file first so a concurrent writer's change is kept.
 */
export const setSessionName = async (env: Env, sessionId: string, name: string | undefined): Promise<NamesLoad> => {
  const file = sessionNamesPath(env);
  const problem = nameCharactersProblem(name ?? '');
  if (problem !== undefined) throw new Error(problem);
  await ensurePrivateDir(configDir(env));
  return withFileLock(configLockPath(env), async () => {
    const current = await readNames(file, true);
    const next: Record<string, string> = { ...current.names };
    const trimmed = name?.trim() ?? '';
    if (trimmed === '') delete next[sessionId];
    else next[sessionId] = trimmed;
    await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
    return current.problem ? { names: next, problem: current.problem } : { names: next };
  });
};
