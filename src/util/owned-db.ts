import { chmodSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { boundPageCache } from './sqlite-memory.js';
import { storageFault } from './storage-fault.js';

/**
 * Opening the SQLite files agentwatch owns (the discovery cache, the webhook queue, the search
 * index): the directory made private, the connection's pragmas, the version check, creating,
 * migrating or checking the tables, and what becomes of a file this build cannot use. Each store
 * says how it differs (its version record, its migrations, when WAL starts, where a refused file
 * goes); what they share is here once.
 */
export interface OwnedDbOptions {
  /** The file, or `:memory:` (no directory, file modes or recovery then). */
  readonly file: string;
  /** How long a statement waits for another process's lock, ms. */
  readonly busyTimeoutMs: number;
  /** Opens an existing file read-only: nothing is checked, created or changed (a one-shot listing). */
  readonly readonly?: boolean;
  /** The version this build writes and reads. */
  readonly version: number;
  /** The version a file holds, 0 for none, undefined when it cannot say; default `PRAGMA user_version`. May throw to refuse the file. */
  readonly versionOf?: (db: Database.Database) => number | undefined;
  /** True for a file to create the tables in; default: version 0 and no table. */
  readonly isNew?: (db: Database.Database, version: number | undefined) => boolean;
  /** Creates the tables (and records the version) in a new file. */
  readonly create: (db: Database.Database) => void;
  /** Checks a file at the current version, or completes it; throws to refuse it. */
  readonly check?: (db: Database.Database) => void;
  /** Per older version, what brings a file of it to the current one; a file of any other version is refused. */
  readonly migrate?: Readonly<Record<number, (db: Database.Database) => void>>;
  /** True for a refused file an earlier agentwatch wrote (expected after an upgrade): see `isOutdated`. */
  readonly wroteEarlier?: (db: Database.Database, version: number | undefined) => boolean;
  /**
   * `always`: WAL from the open on. `unless-new`: a new file takes its first write in
   * rollback-journal mode, straight into the file; the store turns WAL on after it.
   */
  readonly wal: 'always' | 'unless-new';
  /** Pragmas set after the tables, besides WAL and `synchronous = NORMAL`. */
  readonly pragmas?: readonly string[];
  /** Whether the directory's mode must become 0700 (`must`: failing throws), may (`try`), or is left as made. */
  readonly privateDir: 'must' | 'try' | 'no';
  /** Whether the file's mode must become 0600 (`must`), or the file's and its WAL's may (`try`). */
  readonly privateFile: 'must' | 'try';
  /**
   * What becomes of a file that cannot be used (not SQLite, another version, not ours): `remove`d,
   * moved aside under the name `aside` gives it (never deleted: it may hold what someone wants),
   * or left in place and the error thrown (`keep`). Then a new file is started in its place.
   */
  readonly unusable: 'remove' | { readonly aside: (file: string) => string } | 'keep';
  /** Told of a refused file before a new one is started (`aside` when it was moved there). */
  readonly onRefused?: (error: Error, aside: string | undefined) => void;
}

export interface OwnedDb {
  readonly db: Database.Database;
  /** True when the file found was refused and a new one started. */
  readonly rebuilt: boolean;
}

const MEMORY = ':memory:';
const JOURNALS = ['-wal', '-shm', '-journal'] as const;

/** The cause of the error for a file an earlier agentwatch wrote (see `wroteEarlier`). */
const OUTDATED = Symbol('outdated');

/** True when a file was refused because an earlier agentwatch wrote it. */
export const isOutdated = (error: unknown): boolean => (error as Error | undefined)?.cause === OUTDATED;

const userVersion = (db: Database.Database): number => db.pragma('user_version', { simple: true }) as number;

const hasNoTable = (db: Database.Database): boolean => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1`).get() === undefined;

/** Creates, migrates or checks the tables; throws when the file is not to be used. */
const setUp = (db: Database.Database, options: OwnedDbOptions): 'new' | 'existing' => {
  // Reading the header is what fails on a file that is not SQLite.
  const version = (options.versionOf ?? userVersion)(db);
  if ((options.isNew ?? ((_, found) => found === 0 && hasNoTable(db)))(db, version)) {
    options.create(db);
    return 'new';
  }
  const step = version === undefined ? undefined : options.migrate?.[version];
  if (version === options.version) options.check?.(db);
  else if (step) step(db);
  else throw new Error(`schema version ${version ?? 'unknown'}, expected ${options.version}`, { cause: options.wroteEarlier?.(db, version) ? OUTDATED : undefined });
  return 'existing';
};

const connect = (options: OwnedDbOptions): Database.Database => {
  const { file } = options;
  const db = new Database(file, options.readonly ? { readonly: true, fileMustExist: true } : {});
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    boundPageCache(db);
    if (options.readonly) return db;
    const found = setUp(db, options);
    if (options.wal === 'always' || found === 'existing') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    for (const pragma of options.pragmas ?? []) db.pragma(pragma);
    if (file !== MEMORY && options.privateFile === 'must') chmodSync(file, 0o600);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
};

/** Moves `file` and its journals to `aside` (what cannot be moved is removed); false when there was no file to move. */
const moveAside = (file: string, aside: string): boolean => {
  let moved = false;
  for (const suffix of ['', ...JOURNALS]) {
    try {
      renameSync(file + suffix, aside + suffix);
      moved ||= suffix === '';
    } catch {
      rmSync(file + suffix, { force: true });
    }
  }
  return moved;
};

const prepareDir = (file: string, mode: OwnedDbOptions['privateDir']): void => {
  const dir = path.dirname(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // On a read-only file system a recursive mkdir says ENOENT; one level says why (EROFS).
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { mode: 0o700 });
  }
  if (mode === 'no') return;
  try {
    chmodSync(dir, 0o700);
  } catch (error) {
    // `try`: not ours to change (a shared cache directory); the file itself is still 0600.
    if (mode === 'must') throw error;
  }
};

const tightenFiles = (file: string): void => {
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      chmodSync(file + suffix, 0o600);
    } catch {
      // -wal and -shm exist only while the file is open in WAL mode.
    }
  }
};

/**
 * Opens one of agentwatch's own SQLite files, creating, migrating or replacing it as `options`
 * say. Throws, leaving the file alone, on a fault of the disk (util/storage-fault.ts), and when
 * even a new file cannot be used (the store decides what then: an in-memory one,
 * or an error).
 */
export const openOwnedDb = (options: OwnedDbOptions): OwnedDb => {
  const { file } = options;
  if (file === MEMORY) return { db: connect(options), rebuilt: false };
  if (!options.readonly) prepareDir(file, options.privateDir);
  let db: Database.Database;
  let rebuilt = false;
  try {
    db = connect(options);
  } catch (error) {
    // A full or read-only disk, a denied folder or a lock held elsewhere says nothing about the
    // file: it is kept as it is and the store decides how to wait.
    const fault = storageFault(error);
    if (options.readonly || options.unusable === 'keep' || (fault !== undefined && fault !== 'io')) throw error;
    let aside: string | undefined;
    if (options.unusable === 'remove') for (const suffix of ['', ...JOURNALS]) rmSync(file + suffix, { force: true });
    else {
      const to = options.unusable.aside(file);
      if (moveAside(file, to)) aside = to;
    }
    options.onRefused?.(error as Error, aside);
    db = connect(options);
    rebuilt = true;
  }
  if (!options.readonly && options.privateFile === 'try') tightenFiles(file);
  return { db, rebuilt };
};
