import { AGENT_LABEL } from '../../src/sources/agents.js';
import type { Database } from 'better-sqlite3';
import { describe, it } from 'vitest';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { createSqlitePoller } from '../../src/sources/sqlite/poller.js';
import {
  checkPass,
  databaseDiagnostics,
  differingSessions,
  FLAVOUR,
  FLAVOURS,
  forEachCase,
  fuzzTimeoutMs,
  openCopy,
  runOnce,
  statesOf,
  type Flavour,
  withoutLinked,
  useFixtureDatabase,
} from './sqlite-helpers.js';
import { mutate, touchOwner } from './sqlite-mutations.js';

/**
 * Property 1 with a writer at work: a database an agent holds locked mid-transaction is one
 * E_DB_LOCKED diagnostic naming it (then read in full once the lock is gone), and a write not yet
 * committed is never seen (the next poll after its commit reads what a cold pass reads).
 */

const RUNS = 3;
const SEEDS: Readonly<Record<Flavour, number>> = { opencode: 21_000, 'opencode-v2': 22_000, kilo: 23_000, cursor: 24_000 };

const pollerOf = (flavour: Flavour, dbPath: string) => createSqlitePoller({ agent: FLAVOUR[flavour].agent, label: AGENT_LABEL[FLAVOUR[flavour].agent], dbPath, openReader: FLAVOUR[flavour].openReader });

const expectSame = (what: string, a: ReadonlyMap<string, SessionState>, b: ReadonlyMap<string, SessionState>): void => {
  const differing = differingSessions(a, b);
  if (differing.length > 0) throw new Error(`${what}: sessions differ: ${differing.join(', ')}`);
};

const expectNoDatabaseDiagnostic = (what: string, events: readonly SessionEvent[]): void => {
  const failures = databaseDiagnostics(events);
  if (failures.length > 0) throw new Error(`${what}: ${failures[0]?.message}`);
};

describe.each(FLAVOURS)('%s database with a writer mid-transaction', (flavour) => {
  const fixture = useFixtureDatabase(flavour, 'aw-fuzz-lock');

  it('an exclusive lock is one E_DB_LOCKED naming the file; once released, everything is read', async () => {
    const { template, dbPath, base } = fixture();
    await forEachCase(RUNS, SEEDS[flavour], (rng, _seed, note) => {
      const writer: Database = openCopy(template, dbPath);
      const poller = pollerOf(flavour, dbPath);
      try {
        writer.exec('BEGIN EXCLUSIVE');
        note(mutate(writer, rng, flavour).what);
        const locked = poller.poll(FLAVOUR[flavour].now);
        checkPass({ events: [...locked], errors: [], completed: true }, dbPath);
        const failures = databaseDiagnostics(locked);
        if (failures.length !== 1 || failures[0]?.code !== 'E_DB_LOCKED') throw new Error(`expected one E_DB_LOCKED, got ${JSON.stringify(failures)}`);
        if (statesOf(locked).size > 0) throw new Error('sessions read from a database locked exclusively');
        writer.exec('ROLLBACK');
        const after = [...locked, ...poller.poll(FLAVOUR[flavour].now)];
        expectNoDatabaseDiagnostic('after the lock was released', after.slice(locked.length));
        expectSame('after the lock was released', base, statesOf(after));
      } finally {
        poller.close();
        writer.close();
      }
    });
  }, fuzzTimeoutMs(RUNS, 150));

  it('in WAL mode a write not committed yet is not seen; after its commit the next poll equals a cold pass', async () => {
    const { home, template, dbPath, base } = fixture();
    await forEachCase(RUNS, SEEDS[flavour] + 500, (rng, _seed, note) => {
      const writer: Database = openCopy(template, dbPath);
      writer.pragma('journal_mode = WAL');
      const poller = pollerOf(flavour, dbPath);
      try {
        writer.exec('BEGIN IMMEDIATE');
        const mutation = mutate(writer, rng, flavour);
        note(mutation.what);
        touchOwner(writer, flavour, mutation, FLAVOUR[flavour].now);
        const during = [...poller.poll(FLAVOUR[flavour].now)];
        expectNoDatabaseDiagnostic('during the write', during);
        expectSame('during the write', base, statesOf(during));
        writer.exec('COMMIT');
        const next = poller.poll(FLAVOUR[flavour].now);
        const cold = runOnce(flavour, home.env);
        checkPass(cold, dbPath);
        if (databaseDiagnostics(cold.events).length > 0) {
          // The commit made a database the reader cannot use: the poll says so (the sessions it read before stay).
          if (databaseDiagnostics(next).length !== 1) throw new Error('the poll after the commit did not report the database it cannot read');
          return;
        }
        const { owner } = mutation;
        expectSame('after the commit, against a cold pass', withoutLinked(flavour, owner, statesOf(cold.events)), withoutLinked(flavour, owner, statesOf([...during, ...next])));
      } finally {
        poller.close();
        writer.close();
      }
    });
  }, fuzzTimeoutMs(RUNS, 150));
});
