import { mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import type { SessionState } from '../../src/core/session.js';
import {
  checkPass,
  databaseDiagnostics,
  differingSessions,
  FLAVOURS,
  forEachCase,
  fuzzTimeoutMs,
  openCopy,
  runOnce,
  statesOf,
  type Flavour,
  type Pass,
  type Rng,
  useFixtureDatabase,
} from './sqlite-helpers.js';

/**
 * Property 1 over whole database files gone bad (truncated at a random page, bytes flipped, not a
 * database at all, a directory, a stray WAL): every pass completes with `ready`; a file the reader
 * cannot use is one database diagnostic naming it and saying why, never a crash and never silence.
 */

const RUNS = 25;
const SEEDS: Readonly<Record<Flavour, number>> = { opencode: 11_000, 'opencode-v2': 12_000, kilo: 13_000, cursor: 14_000 };
const PAGE = 4096;

interface Damage {
  readonly what: string;
  /**
   * `unreadable`: the file is no database, the pass must say so and show nothing; `cut`: what is
   * left reads as before or the pass says it cannot; `any`: bytes changed in place may still be a
   * valid database of other values (a session id with a byte changed), only property 1 holds.
   */
  readonly expect: 'unreadable' | 'cut' | 'any';
}

const randomBytes = (rng: Rng, length: number): Buffer => Buffer.from(Array.from({ length }, () => rng.int(256)));

/** Damage to the database file at `file` (a copy of the fixture database, rollback journal). */
const damage = (file: string, rng: Rng): Damage => {
  const size = statSync(file).size;
  switch (rng.int(6)) {
    case 0: {
      const pages = rng.int(Math.ceil(size / PAGE));
      truncateSync(file, pages * PAGE);
      return { what: `truncated to ${pages} of ${size / PAGE} pages`, expect: 'cut' };
    }
    case 1: {
      const at = rng.int(size);
      truncateSync(file, at);
      return { what: `truncated at byte ${at} of ${size}`, expect: 'cut' };
    }
    case 2: {
      const bytes = readFileSync(file);
      const flips = 1 + rng.int(16);
      for (let i = 0; i < flips; i += 1) bytes[rng.int(bytes.length)] = rng.int(256);
      writeFileSync(file, bytes);
      return { what: `${flips} random bytes overwritten`, expect: 'any' };
    }
    case 3: {
      const kind = rng.pick(['random bytes', 'text', 'json', 'sqlite header then junk', 'empty']);
      const content =
        kind === 'random bytes'
          ? randomBytes(rng, 1 + rng.int(3 * PAGE))
          : kind === 'text'
            ? Buffer.from('this is not a database\n'.repeat(1 + rng.int(200)))
            : kind === 'json'
              ? Buffer.from(JSON.stringify({ sessions: [{ id: 'ses_x' }] }))
              : kind === 'sqlite header then junk'
                ? Buffer.concat([Buffer.from('SQLite format 3\0'), randomBytes(rng, 84 + rng.int(2 * PAGE))])
                : Buffer.alloc(0);
      writeFileSync(file, content);
      return { what: `replaced by ${kind} (${content.length} bytes)`, expect: 'unreadable' };
    }
    case 4: {
      rmSync(file);
      mkdirSync(file);
      return { what: 'a directory at the database path', expect: 'unreadable' };
    }
    default: {
      const wal = randomBytes(rng, rng.int(2 * PAGE));
      writeFileSync(`${file}-wal`, wal);
      return { what: `a stray -wal of ${wal.length} random bytes`, expect: 'cut' };
    }
  }
};

/** A database that cannot be read whole is one database diagnostic; one read whole folds as before. */
const checkDamaged = (base: ReadonlyMap<string, SessionState>, pass: Pass, expect: Damage['expect']): void => {
  const failures = databaseDiagnostics(pass.events);
  if (failures.length > 1) throw new Error(`one pass reported the database ${failures.length} times: ${failures.map((d) => d.message).join(' | ')}`);
  const states = statesOf(pass.events);
  if (expect === 'unreadable') {
    if (failures.length !== 1) throw new Error(`a file that is no database gave no database diagnostic (sessions: ${[...states.keys()].join(', ')})`);
    if (states.size > 0) throw new Error(`a file that is no database gave sessions: ${[...states.keys()].join(', ')}`);
  }
  if (expect === 'cut' && failures.length === 0) {
    const differing = differingSessions(base, states);
    if (differing.length > 0) throw new Error(`sessions lost or changed without a diagnostic: ${differing.join(', ')}`);
  }
};

describe.each(FLAVOURS)('%s database file damaged as a whole', (flavour) => {
  const fixture = useFixtureDatabase(flavour, 'aw-fuzz-file');

  it('completes with ready; a file it cannot read is one diagnostic naming it', async () => {
    const { home, template, dbPath, base } = fixture();
    await forEachCase(RUNS, SEEDS[flavour], (rng, _seed, note) => {
      rmSync(dbPath, { recursive: true, force: true });
      rmSync(`${dbPath}-wal`, { force: true });
      rmSync(`${dbPath}-shm`, { force: true });
      openCopy(template, dbPath).close();
      const { what, expect } = damage(dbPath, rng);
      note(what);
      const pass = runOnce(flavour, home.env);
      checkPass(pass, dbPath);
      checkDamaged(base, pass, expect);
    });
  }, fuzzTimeoutMs(RUNS, 10));
});
