import type Database from 'better-sqlite3';
import type { AgentKind } from '../core/agents.js';
import { isExcludedCwd } from '../streams/visibility.js';
import { holdsNoSession } from './index-db.js';

/**
 * What the index may hold: the enabled agents, minus the sessions under an excluded cwd. It is
 * kept beside the index, so a config change is followed: a narrower scope deletes what fell out
 * (disabled agents and excluded cwds are never kept), a wider one asks for a rebuild (what came
 * into scope was skipped when it was read, and its offsets were recorded all the same).
 */
export interface IndexScope {
  readonly agents: readonly AgentKind[];
  readonly excludeCwd: readonly string[];
}

export type ScopeChange = 'same' | 'narrowed' | 'widened';

const parseScope = (value: string | undefined): IndexScope | undefined => {
  if (value === undefined) return undefined;
  try {
    const raw = JSON.parse(value) as { agents?: unknown; excludeCwd?: unknown };
    if (!Array.isArray(raw.agents) || !Array.isArray(raw.excludeCwd)) return undefined;
    return { agents: raw.agents.map(String) as AgentKind[], excludeCwd: raw.excludeCwd.map(String) };
  } catch {
    return undefined;
  }
};

/** Pure: how `next` differs from `previous` (an unknown previous scope counts as wider). */
export const compareScopes = (previous: IndexScope | undefined, next: IndexScope): ScopeChange => {
  if (!previous) return 'widened';
  const widened = next.agents.some((a) => !previous.agents.includes(a)) || previous.excludeCwd.some((f) => f !== '' && !next.excludeCwd.includes(f));
  if (widened) return 'widened';
  const narrowed = previous.agents.some((a) => !next.agents.includes(a)) || next.excludeCwd.some((f) => f !== '' && !previous.excludeCwd.includes(f));
  return narrowed ? 'narrowed' : 'same';
};

/**
 * Brings the index to `scope`. `widened` on an index that holds anything: the caller rebuilds
 * (an empty index just records the scope).
 */
export const reconcileScope = (db: Database.Database, scope: IndexScope): ScopeChange => {
  const stored = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'scope'`).get()?.value;
  const previous = parseScope(stored);
  const change = compareScopes(previous, scope);
  const empty = holdsNoSession(db);
  if (change === 'widened' && !empty) return 'widened';
  db.transaction(() => {
    if (change === 'narrowed' && previous) {
      for (const agent of previous.agents.filter((a) => !scope.agents.includes(a))) {
        db.prepare('DELETE FROM messages WHERE agent = ?').run(agent);
        db.prepare('DELETE FROM sessions WHERE agent = ?').run(agent);
        db.prepare('DELETE FROM db_marks WHERE agent = ?').run(agent);
        db.prepare('DELETE FROM db_files WHERE agent = ?').run(agent);
      }
      for (const fragment of scope.excludeCwd.filter((f) => f !== '' && !previous.excludeCwd.includes(f))) {
        db.prepare('DELETE FROM messages WHERE instr(cwd, ?) > 0').run(fragment);
        db.prepare('DELETE FROM sessions WHERE instr(cwd, ?) > 0').run(fragment);
      }
    }
    db.prepare(`INSERT INTO meta (key, value) VALUES ('scope', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(JSON.stringify(scope));
  })();
  // What fell out of scope must leave the file too: the full-text index keeps deleted terms in old
  // segments until they are merged (secure_delete, set at open, zeroes the freed pages).
  if (change === 'narrowed') db.prepare(`INSERT INTO messages (messages) VALUES ('optimize')`).run();
  return empty && change === 'widened' ? 'same' : change;
};

/** `exclude_cwd_substrings` as a predicate (literal, case-sensitive, as everywhere). */
export const excludedBy = (fragments: readonly string[]) => (cwd: string): boolean => isExcludedCwd(cwd, fragments);
