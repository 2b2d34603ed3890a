import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { catchError, EMPTY, scan, tap } from 'rxjs';
import { afterAll, beforeAll } from 'vitest';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import type { AgentKind } from '../../src/core/agents.js';
import type { Source } from '../../src/sources/contracts.js';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { cursorDbPath } from '../../src/sources/cursor/paths.js';
import { makeCursorComposerSource } from '../../src/sources/cursor/index.js';
import { openCursorReader } from '../../src/sources/cursor/reader.js';
import { sessionEventSchema, sessionStateSchema } from '../../src/sources/internal/state-schema.js';
import { KILO_SPEC, makeKiloSource } from '../../src/sources/kilo/index.js';
import { kiloDbPath } from '../../src/sources/kilo/paths.js';
import { makeOpencodeSource, OPENCODE_SPEC } from '../../src/sources/opencode/index.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { openFamilyReader } from '../../src/sources/sqlite/opencode-family/reader.js';
import type { OpenReader } from '../../src/sources/sqlite/reader.js';
import { openDiscoveryCache } from '../../src/sources/internal/cache.js';
import type { SourceCtx } from '../../src/sources/internal/options.js';
import { persistCache } from '../../src/sources/internal/persist-cache.js';
import { initialFoldState, reduceSessions } from '../../src/streams/sessions-reducer.js';
import { foldById, makeCtx } from '../helpers/source-harness.js';
import { fuzzCases, fuzzRuns, mulberry32, pick } from './prng.js';

/**
 * Shared by the SQLite fuzz tests (test/fuzz/sqlite-*.test.ts): a seeded PRNG, the fixture
 * databases built as real files, one pass of the real source over them, and the properties every
 * pass must keep.
 */

// ---------------------------------------------------------------------------------------------
// Seeded randomness (prng.ts): every case is replayable from the seed its failure message prints.

/** A case's random choices. */
export interface Rng {
  readonly next: () => number;
  /** An integer in [0, n). */
  readonly int: (n: number) => number;
  readonly pick: <T>(items: readonly T[]) => T;
}

export const makeRng = (seed: number): Rng => {
  const next = mulberry32(seed);
  return { next, int: (n) => Math.floor(next() * n), pick: (items) => pick(next, items) };
};

/** A test timeout that grows with the case count (AGENTWATCH_FUZZ_RUNS may raise it far above CI's). */
export const fuzzTimeoutMs = (ciRuns: number, msPerCase: number): number => Math.max(20_000, 3 * fuzzRuns(ciRuns) * msPerCase);

/**
 * Runs `body` for each case of `fuzzCases(ciRuns, baseSeed)` (AGENTWATCH_FUZZ_RUNS raises the
 * count, AGENTWATCH_FUZZ_SEED moves the seeds, AGENTWATCH_FUZZ_CASE replays one). A failure names
 * the seed and what the case did.
 */
export const forEachCase = async (ciRuns: number, baseSeed: number, body: (rng: Rng, seed: number, note: (what: string) => void) => void | Promise<void>): Promise<void> => {
  for (const seed of fuzzCases(ciRuns, baseSeed)) {
    const notes: string[] = [];
    try {
      await body(makeRng(seed), seed, (what) => notes.push(what));
    } catch (error) {
      const replay = `seed ${seed} (replay: AGENTWATCH_FUZZ_CASE=${seed})`;
      if (error instanceof Error) {
        error.message = `${replay}; case: ${notes.join('; ') || '(none)'}\n${error.message}`;
        throw error;
      }
      throw new Error(`${replay}: ${String(error)}`);
    }
  }
};

// ---------------------------------------------------------------------------------------------
// The fixture databases, as the agents write them (real files in a temp HOME).

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const sql = (agent: string, file: string): string => readFileSync(path.join(FIXTURES, agent, `${file}.sql`), 'utf8');

/** Which fixture database: OpenCode 1.x (with forks), 2.x, Kilo (with forks), Cursor. */
export type Flavour = 'opencode' | 'opencode-v2' | 'kilo' | 'cursor';
export const FLAVOURS: readonly Flavour[] = ['opencode', 'opencode-v2', 'kilo', 'cursor'];

export interface FlavourSpec {
  readonly agent: AgentKind;
  readonly scripts: () => readonly string[];
  /** The fixtures' own time: Cursor's 48 h window must hold them. */
  readonly now: number;
  readonly dbPath: (env: Record<string, string>) => string;
  readonly source: () => Source;
  /** The reader the source polls with (for tests that drive a poller poll by poll). */
  readonly openReader: OpenReader;
  /** Sessions whose replay reads another's rows (a fork and the session it copied): a change to one may change the other. */
  readonly linked: readonly (readonly [string, string])[];
}

export const FLAVOUR: Readonly<Record<Flavour, FlavourSpec>> = {
  opencode: {
    agent: 'opencode',
    scripts: () => [sql('opencode', 'schema'), sql('opencode', 'data'), sql('opencode', 'v1-fork')],
    now: 1790201000000,
    dbPath: (env) => opencodeDbPath(env),
    source: () => makeOpencodeSource(),
    openReader: openFamilyReader(OPENCODE_SPEC),
    linked: [['ses_f2fc3d1ffffeYAbhGgklP7nBgC', 'ses_f2fbaaa3fffekHXmIvZQv9fjJE']],
  },
  'opencode-v2': {
    agent: 'opencode',
    scripts: () => [sql('opencode', 'v2-schema'), sql('opencode', 'v2-data'), sql('opencode', 'v2-fork')],
    now: 1790100500000,
    dbPath: (env) => opencodeDbPath(env),
    source: () => makeOpencodeSource(),
    openReader: openFamilyReader(OPENCODE_SPEC),
    linked: [
      ['ses_main', 'ses_fork'],
      ['ses_main', 'ses_through'],
      ['ses_main', 'ses_whole'],
    ],
  },
  kilo: {
    agent: 'kilo',
    scripts: () => [sql('kilo', 'schema'), sql('kilo', 'data'), sql('kilo', 'v1-fork')],
    now: 1790201000000,
    dbPath: (env) => kiloDbPath(env),
    source: () => makeKiloSource(),
    openReader: openFamilyReader(KILO_SPEC),
    linked: [['ses_f29cdf0ffffergKoP5VvmNI928', 'ses_f29c95d1fffeGEvHKHiGqstOWx']],
  },
  cursor: {
    agent: 'cursor',
    scripts: () => [sql('cursor', 'schema'), sql('cursor', 'data')],
    now: 1773137700000,
    dbPath: (env) => cursorDbPath(env, 'linux'),
    // The database part: the transcripts beside it are files, read apart (test/sources/cursor/).
    source: () => makeCursorComposerSource(),
    openReader: openCursorReader,
    linked: [],
  },
};

/**
 * The fixture database as a file (rollback journal: one file, copied whole per case). NOT NULL
 * constraints are left out, so a case may store what the agent's schema would refuse (a NULL
 * data or id); they do not change what a reader sees of the rows the fixtures hold.
 */
export const buildTemplate = (flavour: Flavour, file: string): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  try {
    for (const script of FLAVOUR[flavour].scripts()) db.exec(script.replace(/\s+NOT NULL/gi, ''));
  } finally {
    db.close();
  }
};

/** Opens a database file for a case's writes (close it before the pass). */
export const openForWrites = (file: string): Database => {
  const db = new BetterSqlite3(file);
  // As the agents run it (SQLite's default): a case may leave a row whose parent is missing.
  db.pragma('foreign_keys = OFF');
  return db;
};

/** Copies the template to `file` and opens it for the case's writes (close it before the pass). */
export const openCopy = (template: string, file: string): Database => {
  mkdirSync(path.dirname(file), { recursive: true });
  copyFileSync(template, file);
  return openForWrites(file);
};

// ---------------------------------------------------------------------------------------------
// One pass of the real source.

export interface Pass {
  readonly events: SessionEvent[];
  /** Errors the observable raised (a property says: none). */
  readonly errors: unknown[];
  readonly completed: boolean;
}

/** One one-shot (`watch: false`) pass of the flavour's source on `env`: synchronous for a SQLite source. */
export const runOnce = (flavour: Flavour, env: Record<string, string>): Pass => {
  const spec = FLAVOUR[flavour];
  const events: SessionEvent[] = [];
  const errors: unknown[] = [];
  let completed = false;
  const ctx = makeCtx(env, { now: () => spec.now, watch: false });
  const subscription = spec.source()(ctx).subscribe({
    next: (event) => events.push(event),
    error: (error: unknown) => errors.push(error),
    complete: () => (completed = true),
  });
  subscription.unsubscribe();
  return { events, errors, completed };
};

/**
 * One one-shot pass with the discovery cache of `env` wired as the composition root wires it (the
 * persister follows the fold and writes when stopped); a later pass on the same `env` is a warm start.
 */
export const runWithCache = async (flavour: Flavour, env: Record<string, string>): Promise<Pass> => {
  const spec = FLAVOUR[flavour];
  const cache = openDiscoveryCache(env);
  const events: SessionEvent[] = [];
  const errors: unknown[] = [];
  let completed = false;
  const ctx: SourceCtx = { ...makeCtx(env, { now: () => spec.now }), cache, watch: false };
  // One subscription: the one-shot pass emits everything while it is made.
  const state$ = spec.source()(ctx).pipe(
    tap({ next: (event) => events.push(event), error: (error: unknown) => errors.push(error), complete: () => (completed = true) }),
    catchError(() => EMPTY),
    scan((state, event) => reduceSessions(state, [event]).state, initialFoldState([])),
  );
  const stop = persistCache(state$, cache, ctx.scheduler);
  await stop();
  cache.close();
  return { events, errors, completed };
};

// ---------------------------------------------------------------------------------------------
// The properties.

export type Diagnostic = Extract<SessionEvent, { type: 'diagnostic' }>;
/** The codes of a database the reader cannot use (locked, corrupt, of another schema, unreadable). */
const DATABASE_CODES: ReadonlySet<string> = new Set(['E_READ', 'E_DB_LOCKED', 'E_DB_SCHEMA', 'E_DB_CORRUPT']);

export const diagnosticsOf = (events: readonly SessionEvent[]): Diagnostic[] => events.filter((e): e is Diagnostic => e.type === 'diagnostic');

/** Diagnostics by session and code, as the fold counts them (a restored one stands for `count`). */
export const diagnosticCounts = (events: readonly SessionEvent[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const d of diagnosticsOf(events)) {
    const key = `${d.sessionId ?? '(database)'}:${d.code}`;
    counts[key] = (counts[key] ?? 0) + (d.count ?? 1);
  }
  return counts;
};

/** A session's state as compared across passes: without the checkpoint, which only says how it was read. */
export const comparable = (state: SessionState): SessionState => ({ ...state, checkpoint: null });

export const statesOf = (events: readonly SessionEvent[]): Map<string, SessionState> =>
  new Map([...foldById(events)].map(([id, state]) => [id, comparable(state)]));

/**
 * Properties 1 and 4 of one pass: it completed with exactly one `ready` and no error; every
 * event is of the contract (ids non-empty, counts, tokens and cost finite and non-negative, times
 * finite); every diagnostic names the database; every folded state is of the contract too.
 */
export const checkPass = (pass: Pass, dbPath: string): void => {
  if (pass.errors.length > 0) throw new Error(`the source errored: ${String(pass.errors[0])}`);
  if (!pass.completed) throw new Error('the one-shot pass did not complete');
  const ready = pass.events.filter((e) => e.type === 'ready');
  if (ready.length !== 1) throw new Error(`expected one ready, got ${ready.length}`);
  for (const event of pass.events) {
    const parsed = sessionEventSchema.safeParse(event);
    if (!parsed.success) throw new Error(`an event outside the contract: ${JSON.stringify(event).slice(0, 400)}: ${parsed.error.message.slice(0, 400)}`);
  }
  for (const d of diagnosticsOf(pass.events)) {
    if (d.path !== dbPath) throw new Error(`a diagnostic that does not name the database: ${JSON.stringify(d)}`);
    if (DATABASE_CODES.has(d.code) && !d.message.includes(dbPath)) throw new Error(`a database diagnostic whose message does not name the file: ${d.message}`);
  }
  for (const [id, state] of foldById(pass.events)) {
    const parsed = sessionStateSchema.safeParse(state);
    if (!parsed.success) throw new Error(`session ${id} folds to a state outside the contract: ${parsed.error.message.slice(0, 600)}`);
  }
};

/** The database-level diagnostics of a pass (a database that cannot be read: locked, corrupt, of another schema). */
export const databaseDiagnostics = (events: readonly SessionEvent[]): Diagnostic[] => diagnosticsOf(events).filter((d) => DATABASE_CODES.has(d.code));

/** Sessions of `a` and `b` that differ (present in one only, or folded differently), by id. */
export const differingSessions = (a: ReadonlyMap<string, SessionState>, b: ReadonlyMap<string, SessionState>): string[] => {
  const ids = new Set([...a.keys(), ...b.keys()]);
  return [...ids].filter((id) => !isDeepStrictEqual(a.get(id), b.get(id))).sort();
};

/** What a mutation (sqlite-mutations.ts) says a pass must show, as far as the check needs it. */
export interface Expectation {
  readonly owner: string | undefined;
  readonly expect: 'diagnostic' | 'database' | 'same' | 'any';
}

/** The sessions a change to `owner` may change: itself and those linked to it. */
export const reach = (flavour: Flavour, owner: string): Set<string> => {
  const out = new Set([owner]);
  for (const [a, b] of FLAVOUR[flavour].linked) {
    if (a === owner) out.add(b);
    if (b === owner) out.add(a);
  }
  return out;
};

/**
 * Property 2 (and what the mutation says): every session of the unmutated database that the
 * mutation cannot reach folds exactly as before; a damaged record the reader parses is a counted
 * diagnostic of its session; a database the reader cannot use is one database diagnostic.
 */
export const checkContained = (flavour: Flavour, base: ReadonlyMap<string, SessionState>, pass: Pass, mutation: Expectation): void => {
  const states = statesOf(pass.events);
  const databaseLevel = databaseDiagnostics(pass.events);
  if (mutation.expect === 'database') {
    if (databaseLevel.length !== 1) throw new Error(`expected one database diagnostic, got ${JSON.stringify(databaseLevel)}`);
    return;
  }
  if (databaseLevel.length > 0) throw new Error(`unexpected database diagnostic: ${databaseLevel[0]?.message}`);
  const reachable = mutation.owner === undefined ? new Set<string>() : mutation.owner === '*' ? new Set(base.keys()) : reach(flavour, mutation.owner);
  const changed = differingSessions(base, states).filter((id) => base.has(id) && !reachable.has(id));
  if (changed.length > 0) {
    const id = changed[0] ?? '';
    throw new Error(`sessions the mutation cannot reach changed: ${changed.join(', ')}; ${id} was ${JSON.stringify(base.get(id))?.slice(0, 600)}, now ${JSON.stringify(states.get(id))?.slice(0, 600)}`);
  }
  if (mutation.expect === 'same') {
    const differing = differingSessions(base, states);
    if (differing.length > 0) throw new Error(`expected every session as before, these differ: ${differing.join(', ')}`);
  }
  if (mutation.expect === 'diagnostic' && mutation.owner !== undefined && base.has(mutation.owner)) {
    const own = diagnosticsOf(pass.events).filter((d) => d.sessionId === mutation.owner);
    if (own.length === 0) throw new Error(`a damaged record of ${mutation.owner} made no diagnostic`);
  }
};

/**
 * `states` without the sessions linked to `owner` (not `owner` itself). A fork is judged against
 * the session it copied when it is read: a change to that session alone does not read it again
 * (its listing stamp is its own), so a warm or incremental pass keeps its earlier judgement, by
 * design (opencode-v1-fork.test.ts); a cold pass judges it anew.
 */
export const withoutLinked = (flavour: Flavour, owner: string | undefined, states: ReadonlyMap<string, SessionState>): Map<string, SessionState> => {
  const linked = owner === undefined || owner === '*' ? new Set<string>() : reach(flavour, owner);
  if (owner !== undefined) linked.delete(owner);
  return new Map([...states].filter(([id]) => !linked.has(id)));
};

/** A flavour's fixture database in place on a temp HOME, the template it is copied from, and its sessions undamaged. */
export interface FixtureDatabase {
  readonly home: TempHome;
  readonly template: string;
  readonly dbPath: string;
  readonly base: ReadonlyMap<string, SessionState>;
}

/**
 * Sets up one `FixtureDatabase` for the enclosing describe (built before its tests, removed after
 * them); the returned function gives it to a test.
 */
export const useFixtureDatabase = (flavour: Flavour, prefix: string): (() => FixtureDatabase) => {
  let fixture: FixtureDatabase | undefined;
  beforeAll(async () => {
    const home = await makeTempHome(`${prefix}-${flavour}-`);
    const template = path.join(home.root, 'template.db');
    buildTemplate(flavour, template);
    const dbPath = FLAVOUR[flavour].dbPath(home.env);
    openCopy(template, dbPath).close();
    const pass = runOnce(flavour, home.env);
    checkPass(pass, dbPath);
    fixture = { home, template, dbPath, base: statesOf(pass.events) };
  });
  afterAll(() => fixture?.home.cleanup());
  return () => {
    if (!fixture) throw new Error('the fixture database is set up before the tests');
    return fixture;
  };
};
