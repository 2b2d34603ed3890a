import type { Database } from 'better-sqlite3';
import type { Flavour, Rng } from './sqlite-helpers.js';

/**
 * Random damage to a fixture database, one mutation per case, each saying what it did and what a
 * pass over the result must show (test/fuzz/sqlite-*.test.ts check it).
 */

export interface Mutation {
  readonly what: string;
  /**
   * The session whose state may change: the one owning the row; `'*'` when any may (a table
   * emptied or dropped, the composer index); undefined when none may.
   */
  readonly owner: string | undefined;
  /**
   * `diagnostic`: the owner, when the unmutated database has it, gets a counted diagnostic;
   * `database`: the pass reports one database diagnostic (the reader cannot use the file);
   * `same`: every session folds as in the unmutated database; `any`: only the general properties.
   */
  readonly expect: 'diagnostic' | 'database' | 'same' | 'any';
}

type Row = Record<string, unknown> & { readonly rid: number };

interface Picked {
  readonly table: string;
  readonly row: Row;
  readonly owner: string | undefined;
}

/** The tables holding sessions and their records, per flavour. */
const ROW_TABLES: Readonly<Record<Flavour, readonly string[]>> = {
  opencode: ['session', 'message', 'message', 'part', 'part'],
  'opencode-v2': ['session_v2', 'session_message', 'session_message'],
  kilo: ['session', 'message', 'message', 'part', 'part'],
  cursor: ['cursorDiskKV'],
};

/** Every table of the flavour's database and whether its reader cannot do without it. */
const TABLES: Readonly<Record<Flavour, Readonly<Record<string, boolean>>>> = {
  opencode: { session: true, message: true, part: true, project: false },
  'opencode-v2': { session_v2: true, session_message: true, project: false },
  kilo: { session: true, message: true, part: true, project: false, workspace: false, event: false, event_sequence: false },
  cursor: { cursorDiskKV: true, ItemTable: false },
};

/** JSON columns the reader parses, per table. */
const JSON_COLUMN: Readonly<Record<string, string>> = {
  message: 'data',
  part: 'data',
  session_message: 'data',
  session_v2: 'model',
  session: 'model',
  cursorDiskKV: 'value',
  ItemTable: 'value',
};

/** session_message types the 2.x reader skips without parsing. */
const IGNORED_V2_TYPES = new Set(['system', 'agent-switched', 'location-switched', 'idle']);

const COMPOSER = 'composerData:';
const BUBBLE = 'bubbleId:';

const ownerOf = (table: string, row: Row): string | undefined => {
  if (table === 'session' || table === 'session_v2') return typeof row['id'] === 'string' ? row['id'] : undefined;
  if (table === 'cursorDiskKV') {
    const key = typeof row['key'] === 'string' ? row['key'] : '';
    if (key.startsWith(COMPOSER)) return key.slice(COMPOSER.length);
    if (key.startsWith(BUBBLE)) return key.slice(BUBBLE.length).split(':')[0];
    return undefined;
  }
  if (table === 'ItemTable') return '*';
  return typeof row['session_id'] === 'string' ? row['session_id'] : undefined;
};

const pickRow = (db: Database, rng: Rng, table: string): Picked | undefined => {
  const count = db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
  if (count === 0) return undefined;
  const row = db.prepare(`SELECT rowid AS rid, * FROM "${table}" ORDER BY rowid LIMIT 1 OFFSET ?`).get(rng.int(count)) as Row;
  return { table, row, owner: ownerOf(table, row) };
};

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('utf8') : undefined);

const parseObject = (value: unknown): Record<string, unknown> | undefined => {
  const text = textOf(value);
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Whether the reader parses this row's JSON for a session it shows (so damage to it must be a
 * diagnostic): 1.x messages and parts, 2.x messages of a type it reads, Cursor composers and the
 * bubbles their headers list.
 */
const isParsedRecord = (db: Database, picked: Picked): boolean => {
  const { table, row } = picked;
  if (table === 'message' || table === 'part') return true;
  if (table === 'session_message') return typeof row['type'] === 'string' && !IGNORED_V2_TYPES.has(row['type']);
  if (table !== 'cursorDiskKV') return false;
  const key = String(row['key']);
  if (key.startsWith(COMPOSER)) return true;
  if (!key.startsWith(BUBBLE)) return false;
  const [composerId, bubbleId] = key.slice(BUBBLE.length).split(':');
  const composer = parseObject(db.prepare(`SELECT value FROM cursorDiskKV WHERE key = ?`).pluck().get(`${COMPOSER}${composerId}`));
  const headers = composer?.['fullConversationHeadersOnly'];
  return Array.isArray(headers) && headers.some((h: unknown) => typeof h === 'object' && h !== null && (h as { bubbleId?: unknown }).bubbleId === bubbleId);
};

/** The row's JSON column, when its table has one. */
const jsonColumn = (picked: Picked | undefined): string | undefined => {
  const column = picked && JSON_COLUMN[picked.table];
  return column !== undefined && picked !== undefined && column in picked.row ? column : undefined;
};

const update = (db: Database, picked: Picked, column: string, value: unknown): void => {
  db.prepare(`UPDATE "${picked.table}" SET "${column}" = ? WHERE rowid = ?`).run(value, picked.row.rid);
};

// ---------------------------------------------------------------------------------------------
// Values that do not belong.

/** Written into JSON as bare text (JSON.stringify cannot say them): numbers JSON.parse reads as +-Infinity, lone surrogates. */
const RAW = {
  infinity: '1e999',
  minusInfinity: '-1e999',
  loneHigh: '"\\ud800"',
  loneLow: '"half \\udfff a pair"',
  reversedPair: '"\\udc00\\ud800"',
} as const;
type RawName = keyof typeof RAW;
const rawMark = (name: RawName): string => `@@raw:${name}@@`;

/** JSON text of `value`, with the `rawMark`s replaced by their bare text. */
const toJson = (value: unknown): string =>
  JSON.stringify(value).replace(/"@@raw:(\w+)@@"/g, (_m, name: string) => RAW[name as RawName] ?? 'null');

const ODD_VALUES: readonly unknown[] = [
  null, true, false, '', 'x', 'many', -1, 0, 1.5, 1e308, 2 ** 60, -0.5, [], {}, [1, 2], { a: 1 },
  rawMark('infinity'), rawMark('minusInfinity'), rawMark('loneHigh'), rawMark('loneLow'), rawMark('reversedPair'),
];

/** Counts that are no counts: negative, not finite, beyond any real count. */
const BAD_COUNTS: readonly unknown[] = [-1, -0.5, -1e9, 1e308, 2 ** 60, rawMark('infinity'), rawMark('minusInfinity')];
const GOOD_COUNTS: readonly unknown[] = [0, 1, 12345, 0.25, null];

const ODD_COLUMN_VALUES: readonly unknown[] = [null, '', 'abc', -1, 0, 1.5, 1e308, -1e308, 2 ** 62, Buffer.from([0xff, 0x00, 0xfe]), Buffer.from('{"role":"user"}')];

/** Paths of every value in `value` (objects and arrays walked, at most `depth` deep). */
const pathsIn = (value: unknown, depth = 4, prefix: readonly (string | number)[] = []): (string | number)[][] => {
  if (depth === 0 || typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsIn(child, depth - 1, [...prefix, key])]);
};

const setPath = (target: Record<string, unknown>, at: readonly (string | number)[], value: unknown): void => {
  let node: Record<string | number, unknown> = target;
  for (const key of at.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) {
      node[key] = {};
    }
    node = node[key] as Record<string | number, unknown>;
  }
  const last = at.at(-1);
  if (last !== undefined) node[last] = value;
};

const getPath = (target: unknown, at: readonly (string | number)[]): unknown => {
  let node: unknown = target;
  for (const key of at) node = typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined;
  return node;
};

// ---------------------------------------------------------------------------------------------
// The mutations.

type Mutator = (db: Database, rng: Rng, flavour: Flavour) => Mutation | undefined;

const pickRecord = (db: Database, rng: Rng, flavour: Flavour): Picked | undefined => pickRow(db, rng, rng.pick(ROW_TABLES[flavour]));

/** A record's JSON cut short at a random byte. */
const truncateJson: Mutator = (db, rng, flavour) => {
  const picked = pickRecord(db, rng, flavour);
  const column = jsonColumn(picked);
  const text = picked && column ? textOf(picked.row[column]) : undefined;
  if (!picked || !column || !text) return undefined;
  const cut = rng.int(text.length);
  update(db, picked, column, text.slice(0, cut));
  return { what: `${picked.table} row ${picked.row.rid} ${column} cut to ${cut} of ${text.length} chars`, owner: picked.owner, expect: isParsedRecord(db, picked) ? 'diagnostic' : 'any' };
};

/** A record's JSON replaced by JSON of another type. */
const wrongJsonType: Mutator = (db, rng, flavour) => {
  const picked = pickRecord(db, rng, flavour);
  const column = jsonColumn(picked);
  if (!picked || !column) return undefined;
  const value = rng.pick(['[]', '42', '"text"', 'null', 'true', '[{"type":"text"}]', '{}']);
  const parsed = isParsedRecord(db, picked);
  update(db, picked, column, value);
  // `{}` is a valid (empty) record where every field is optional: 2.x messages, Cursor composers.
  const diagnosed = parsed && (value !== '{}' || picked.table === 'message' || picked.table === 'part' || String(picked.row['key']).startsWith(BUBBLE));
  return { what: `${picked.table} row ${picked.row.rid} ${column} = ${value}`, owner: picked.owner, expect: diagnosed ? 'diagnostic' : 'any' };
};

/** One field of a record's JSON set to a value of another type (or a lone surrogate, or not finite). */
const oddField: Mutator = (db, rng, flavour) => {
  const picked = pickRecord(db, rng, flavour);
  const column = jsonColumn(picked);
  const json = column ? parseObject(picked?.row[column]) : undefined;
  if (!picked || !column || !json) return undefined;
  const paths = pathsIn(json);
  if (paths.length === 0) return undefined;
  const at = rng.pick(paths);
  const value = rng.pick(ODD_VALUES);
  setPath(json, at, value);
  update(db, picked, column, toJson(json));
  return { what: `${picked.table} row ${picked.row.rid} ${column} ${at.join('.')} = ${JSON.stringify(value)}`, owner: picked.owner, expect: 'any' };
};

/** The count fields the readers sum, per table (tokens and cost). */
const COUNT_PATHS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  message: [['tokens', 'input'], ['tokens', 'output'], ['tokens', 'reasoning'], ['tokens', 'cache', 'read'], ['tokens', 'cache', 'write'], ['cost']],
  session_message: [['tokens', 'input'], ['tokens', 'output'], ['tokens', 'reasoning'], ['tokens', 'cache', 'read'], ['tokens', 'cache', 'write'], ['cost']],
  cursorDiskKV: [['tokenCount', 'inputTokens'], ['tokenCount', 'outputTokens']],
};

/** A record's token count or cost made negative, not finite, absurdly large (a diagnostic), or another plain value. */
const oddCount: Mutator = (db, rng, flavour) => {
  const table = flavour === 'cursor' ? 'cursorDiskKV' : flavour === 'opencode-v2' ? 'session_message' : 'message';
  const where = flavour === 'cursor' ? `key LIKE 'bubbleId:%'` : `data LIKE '%"tokens"%'`;
  const count = db.prepare(`SELECT count(*) FROM "${table}" WHERE ${where}`).pluck().get() as number;
  if (count === 0) return undefined;
  const row = db.prepare(`SELECT rowid AS rid, * FROM "${table}" WHERE ${where} ORDER BY rowid LIMIT 1 OFFSET ?`).get(rng.int(count)) as Row;
  const picked: Picked = { table, row, owner: ownerOf(table, row) };
  const json = parseObject(row[JSON_COLUMN[table] ?? 'data']);
  if (!json) return undefined;
  const at = rng.pick(COUNT_PATHS[table] ?? []);
  const bad = rng.next() < 0.7;
  const value = rng.pick(bad ? BAD_COUNTS : GOOD_COUNTS);
  setPath(json, at, value);
  update(db, picked, JSON_COLUMN[table] ?? 'data', toJson(json));
  return { what: `${table} row ${row.rid} ${at.join('.')} = ${JSON.stringify(value)}`, owner: picked.owner, expect: bad && isParsedRecord(db, picked) ? 'diagnostic' : 'any' };
};

/** Time fields (JSON and columns) of one record or a whole table in seconds instead of ms. */
const secondsNotMs: Mutator = (db, rng, flavour) => {
  const picked = pickRecord(db, rng, flavour);
  if (!picked) return undefined;
  const column = JSON_COLUMN[picked.table];
  const json = column ? parseObject(picked.row[column]) : undefined;
  const changed: string[] = [];
  if (json && column) {
    for (const at of pathsIn(json)) {
      const key = String(at.at(-1));
      const value = getPath(json, at);
      if (!/time|created|completed|start|end|At$/i.test(key)) continue;
      if (typeof value === 'number' && value > 1e11) setPath(json, at, Math.floor(value / 1000));
      else if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) setPath(json, at, Math.floor(Date.parse(value) / 1000));
      else continue;
      changed.push(at.join('.'));
    }
    if (changed.length > 0) update(db, picked, column, toJson(json));
  }
  for (const key of Object.keys(picked.row)) {
    const value = picked.row[key];
    if (key.startsWith('time_') && typeof value === 'number' && value > 1e11) {
      update(db, picked, key, Math.floor(value / 1000));
      changed.push(key);
    }
  }
  return changed.length === 0 ? undefined : { what: `${picked.table} row ${picked.row.rid} in seconds: ${changed.join(', ')}`, owner: picked.owner, expect: 'any' };
};

/** A text the replay shows with invalid UTF-16 (a lone or reversed surrogate, as JSON escapes), or invalid UTF-8 bytes. */
const badText: Mutator = (db, rng, flavour) => {
  const picked = pickRecord(db, rng, flavour);
  const column = jsonColumn(picked);
  const text = column ? textOf(picked?.row[column]) : undefined;
  if (!picked || !column || !text || !text.includes('"text":"')) return undefined;
  if (rng.next() < 0.5) {
    const escape = rng.pick(['\\ud800', '\\udfff', '\\udc00\\ud800', 'a\\ud83d']);
    update(db, picked, column, text.replace('"text":"', `"text":"${escape}`));
    return { what: `${picked.table} row ${picked.row.rid} text with ${escape}`, owner: picked.owner, expect: 'any' };
  }
  const [head, ...rest] = text.split('"text":"');
  const bytes = Buffer.concat([Buffer.from(`${head ?? ''}"text":"`), Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from(rest.join('"text":"'))]);
  update(db, picked, column, rng.next() < 0.5 ? bytes : bytes.toString('latin1'));
  return { what: `${picked.table} row ${picked.row.rid} text with invalid UTF-8 bytes`, owner: picked.owner, expect: 'any' };
};

/** A column of one row set to NULL or a value of another type (a BLOB, a number, an empty string). */
const oddColumn: Mutator = (db, rng, flavour) => {
  const picked = pickRecord(db, rng, flavour);
  if (!picked) return undefined;
  const column = rng.pick(Object.keys(picked.row).filter((key) => key !== 'rid'));
  const value = rng.pick(ODD_COLUMN_VALUES);
  try {
    update(db, picked, column, value);
  } catch {
    // A UNIQUE column that already holds that value: another case.
    return undefined;
  }
  return { what: `${picked.table} row ${picked.row.rid} column ${column} = ${Buffer.isBuffer(value) ? `x'${value.toString('hex')}'` : JSON.stringify(value)}`, owner: picked.owner, expect: 'any' };
};

/** A message whose session does not exist, or a part whose message does not: nobody's records. */
const orphan: Mutator = (db, rng, flavour) => {
  if (flavour === 'cursor') {
    const picked = pickRow(db, rng, 'cursorDiskKV');
    if (!picked || !String(picked.row['key']).startsWith(BUBBLE)) return undefined;
    const composerId = picked.owner ?? '';
    const key = rng.next() < 0.5 ? `bubbleId:ghost-composer:${rng.int(1000)}` : `bubbleId:${composerId}:unlisted-${rng.int(1000)}`;
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(key, picked.row['value']);
    return { what: `orphan bubble ${key}`, owner: undefined, expect: 'same' };
  }
  const table = flavour === 'opencode-v2' ? 'session_message' : rng.pick(['message', 'part']);
  const picked = pickRow(db, rng, table);
  if (!picked) return undefined;
  const { rid: _rid, ...row } = picked.row;
  const copy: Record<string, unknown> = { ...row, id: `${String(row['id'])}_orphan${rng.int(1000)}` };
  if (table === 'part') copy['message_id'] = 'msg_ghost';
  else copy['session_id'] = 'ses_ghost';
  const columns = Object.keys(copy);
  db.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...columns.map((c) => copy[c]));
  return { what: `orphan ${table} ${String(copy['id'])} (of ${table === 'part' ? 'message msg_ghost' : 'session ses_ghost'})`, owner: undefined, expect: 'same' };
};

/** A Cursor key of an odd shape: a composer or bubble without an id, a key that only looks like one. */
const oddKey: Mutator = (db, rng, flavour) => {
  if (flavour !== 'cursor') return undefined;
  const picked = pickRow(db, rng, 'cursorDiskKV');
  if (!picked) return undefined;
  const key = rng.pick(['composerData:', 'composerData', 'bubbleId:', 'bubbleId::', `bubbleId:${picked.owner ?? ''}:`, 'composerData:\u0000', 'composerdata:x']);
  try {
    update(db, picked, 'key', key);
  } catch {
    return undefined;
  }
  return { what: `cursorDiskKV row ${picked.row.rid} key = ${JSON.stringify(key)}`, owner: picked.owner, expect: 'any' };
};

/** Cursor's composer index (`ItemTable` key or `composerHeaders` table, headers.ts) with odd entries for existing composers. */
const oddComposerIndex: Mutator = (db, rng, flavour) => {
  if (flavour !== 'cursor') return undefined;
  const ids = (db.prepare(`SELECT substr(key, ${COMPOSER.length + 1}) FROM cursorDiskKV WHERE key LIKE 'composerData:%'`).pluck().all() as string[]).slice(0, 3);
  const odd = (): unknown => rng.pick([null, 1, 'yes', true, [], { uri: 5 }, { uri: { fsPath: 7 } }, { uri: { fsPath: '' } }, rawMark('loneHigh')]);
  const headers = ids.map((composerId) => ({ composerId, isSubagent: odd(), workspaceIdentifier: odd() }));
  if (rng.next() < 0.5) {
    const value = rng.pick([toJson({ allComposers: headers }), toJson({ allComposers: 5 }), '{"allComposers":[', toJson(headers)]);
    db.prepare(`INSERT INTO ItemTable VALUES ('composer.composerHeaders', ?)`).run(value);
    return { what: `ItemTable composer.composerHeaders = ${value.slice(0, 120)}`, owner: '*', expect: 'any' };
  }
  db.exec('CREATE TABLE composerHeaders (composerId TEXT, isSubagent, value)');
  const insert = db.prepare('INSERT INTO composerHeaders VALUES (?, ?, ?)');
  for (const header of headers) {
    const subagent = rng.pick([0, 1, 'true', null, Buffer.from([1])]);
    insert.run(rng.next() < 0.2 ? null : header.composerId, subagent, rng.pick([toJson(header), '{"x":', null, '"str"', 'null']));
  }
  return { what: `composerHeaders table with ${headers.length} odd rows`, owner: '*', expect: 'any' };
};

/** A column the reader does not know, added to a table. */
const extraColumn: Mutator = (db, rng, flavour) => {
  const table = rng.pick(Object.keys(TABLES[flavour]));
  db.exec(`ALTER TABLE "${table}" ADD COLUMN zz_added_by_a_newer_version TEXT DEFAULT 'x'`);
  return { what: `extra column in ${table}`, owner: undefined, expect: 'same' };
};

/** A table emptied. */
const emptyTable: Mutator = (db, rng, flavour) => {
  const table = rng.pick(Object.keys(TABLES[flavour]));
  db.exec(`DELETE FROM "${table}"`);
  return { what: `table ${table} emptied`, owner: '*', expect: 'any' };
};

/** A table dropped: one the reader needs is a database diagnostic, another changes nothing. */
const dropTable: Mutator = (db, rng, flavour) => {
  const table = rng.pick(Object.keys(TABLES[flavour]));
  db.exec(`DROP TABLE "${table}"`);
  const needed = TABLES[flavour][table] === true;
  return { what: `table ${table} dropped`, owner: needed ? '*' : undefined, expect: needed ? 'database' : 'same' };
};

/** The weights of the mutations: record damage most often. */
const MUTATORS: readonly Mutator[] = [
  truncateJson, truncateJson, wrongJsonType, oddField, oddField, oddField, oddCount, oddCount, secondsNotMs, badText, oddColumn, oddColumn,
  orphan, oddKey, oddComposerIndex, extraColumn, emptyTable, dropTable,
];

/** One random mutation of `db` (a fixture database of `flavour`). */
export const mutate = (db: Database, rng: Rng, flavour: Flavour): Mutation => {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const mutation = rng.pick(MUTATORS)(db, rng, flavour);
    if (mutation) return mutation;
  }
  throw new Error('no mutation applied in 50 attempts');
};

/**
 * Marks the mutation's session written as its agent marks one: OpenCode and Kilo move the
 * session's `time_updated`, Cursor rewrites a row under a new rowid. The readers' listing stamps
 * count on it (an old session's rows changed in place, with nothing else, are not looked at
 * again: reader.ts `RECENT_WINDOW_MS`), so a warm or incremental pass notices what changed.
 */
export const touchOwner = (db: Database, flavour: Flavour, mutation: Mutation, now: number): void => {
  const { owner } = mutation;
  if (owner === undefined) return;
  if (flavour === 'cursor') {
    if (db.prepare(`SELECT count(*) FROM pragma_table_info('cursorDiskKV')`).pluck().get() === 0) return;
    const rows = db.prepare(`SELECT key, value FROM cursorDiskKV WHERE ? OR key IN (?, ?) OR key LIKE ?`);
    const all = owner === '*' ? 1 : 0;
    const keys = rows.all(all, `${COMPOSER}${owner}`, `${BUBBLE}${owner}`, `${BUBBLE}${owner}:%`) as { key: unknown; value: unknown }[];
    const insert = db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
    for (const row of keys) insert.run(row.key, row.value);
    return;
  }
  for (const table of ['session', 'session_v2']) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table);
    if (!columns.includes('time_updated')) continue;
    if (owner === '*') db.prepare(`UPDATE "${table}" SET time_updated = ?`).run(now);
    else db.prepare(`UPDATE "${table}" SET time_updated = ? WHERE id = ?`).run(now, owner);
  }
};
