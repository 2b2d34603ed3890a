import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { filter, firstValueFrom, Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SessionDetail, SessionEvent } from '../../src/core/session.js';
import { kiloDbPaths } from '../../src/sources/kilo/paths.js';
import { makeOpencodeSource } from '../../src/sources/opencode/index.js';
import type { SourceCtx } from '../../src/sources/internal/options.js';
import { opencodeDataDir, opencodeDbPaths } from '../../src/sources/opencode/paths.js';
import { runCli } from '../helpers/cli.js';
import { makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { fixtureSql } from './sqlite/helpers.js';

// OpenCode names its database after the release channel of the build: `opencode.db` for latest
// and beta, `opencode-<channel>.db` for every other (a Nix install: stable; a build from source:
// local). A user on such a build, or one who switched channels, has sessions in those files.

const buildDb = (file: string, generation: 'v1' | 'v2'): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.exec(fixtureSql('opencode', generation === 'v1' ? 'schema' : 'v2-schema'));
  db.exec(fixtureSql('opencode', generation === 'v1' ? 'data' : 'v2-data'));
  db.close();
};

const withHome = async (test: (home: TempHome, dir: string) => Promise<void>): Promise<void> => {
  const home = await makeTempHome('agentwatch-opencode-channels-');
  try {
    await test(home, opencodeDataDir(home.env));
  } finally {
    await home.cleanup();
  }
};

describe('OpenCode databases of every release channel', { timeout: 60_000 }, () => {
  it('reads opencode.db and every opencode-<channel>.db, and nothing else; OPENCODE_DB alone when set', () =>
    withHome(async (home, dir) => {
      mkdirSync(path.join(dir, 'opencode-dir.db'), { recursive: true });
      for (const name of ['opencode-stable.db', 'opencode-local.db', 'opencode-stable.db-wal', 'opencode-stable.db-shm', 'notes.db', 'opencode-.db', 'auth.json']) {
        writeFileSync(path.join(dir, name), '');
      }
      // The released channel's file first, watched for even while it does not exist.
      expect(opencodeDbPaths(home.env)).toEqual([path.join(dir, 'opencode.db'), path.join(dir, 'opencode-local.db'), path.join(dir, 'opencode-stable.db')]);
      expect(opencodeDbPaths({ ...home.env, OPENCODE_DB: 'opencode-stable.db' })).toEqual([path.join(dir, 'opencode-stable.db')]);
      // Kilo forks OpenCode, channel names included.
      const kiloDir = path.join(home.env.XDG_DATA_HOME as string, 'kilo');
      mkdirSync(kiloDir, { recursive: true });
      writeFileSync(path.join(kiloDir, 'kilo-nightly.db'), '');
      expect(kiloDbPaths(home.env)).toEqual([path.join(kiloDir, 'kilo.db'), path.join(kiloDir, 'kilo-nightly.db')]);
    }));

  it('the source reads every channel database and says ready once, after all of them', () =>
    withHome(async (home, dir) => {
      buildDb(path.join(dir, 'opencode-stable.db'), 'v1');
      buildDb(path.join(dir, 'opencode-local.db'), 'v2');
      const ctx: SourceCtx = { ...makeCtx(home.env), watch: false };
      const events: SessionEvent[] = await firstValueFrom(makeOpencodeSource()(ctx).pipe(toArray()));
      const readies = events.filter((e) => e.type === 'ready');
      expect(readies).toEqual([{ type: 'ready', agent: 'opencode' }]);
      expect(events.at(-1)).toEqual({ type: 'ready', agent: 'opencode' });
      const sessions = new Set(events.flatMap((e) => ('sessionId' in e && e.sessionId ? [e.sessionId] : [])));
      // One session only the 1.x database holds, one only the 2.x one holds.
      expect(sessions.has('ses_footer')).toBe(true);
      expect(sessions.has('ses_rename')).toBe(true);
      // The released channel's database does not exist: waited for, not an error.
      expect(events.filter((e) => e.type === 'diagnostic' && e.code !== 'E_UNKNOWN_RECORD' && e.code !== 'E_JUNK_LINE' && e.code !== 'E_SCHEMA')).toEqual([]);
    }));

  it('while watching, a channel database that appears later is read from then on (no second ready)', () =>
    withHome(async (home, dir) => {
      buildDb(path.join(dir, 'opencode.db'), 'v1');
      const events: SessionEvent[] = [];
      const arrived = new Subject<void>();
      const until = (wanted: (event: SessionEvent) => boolean): Promise<unknown> =>
        events.some(wanted) ? Promise.resolve() : firstValueFrom(arrived.pipe(filter(() => events.some(wanted))));
      const subscription = makeOpencodeSource({ intervalMs: 40 })(makeCtx(home.env)).subscribe((event) => {
        events.push(event);
        arrived.next();
      });
      try {
        await until((e) => e.type === 'ready');
        expect(events.some((e) => 'sessionId' in e && e.sessionId === 'ses_rename')).toBe(false);
        // A nightly build's first start while we watch: a new database, and its sessions with it.
        buildDb(path.join(dir, 'opencode-nightly.db'), 'v2');
        await until((e) => 'sessionId' in e && e.sessionId === 'ses_rename');
      } finally {
        subscription.unsubscribe();
      }
      expect(events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent: 'opencode' }]);
    }));

  it('`sessions` lists the sessions of a Nix install (opencode-stable.db only)', () =>
    withHome(async (home, dir) => {
      buildDb(path.join(dir, 'opencode-stable.db'), 'v2');
      const run = await runCli(['sessions', '--agent', 'opencode', '--all', '--json'], { env: home.env, timeoutMs: 30_000 });
      expect(run.code).toBe(0);
      const listed = JSON.parse(run.stdout) as SessionDetail[];
      expect(listed.map((s) => s.session_id).sort()).toEqual(['ses_build', 'ses_compact', 'ses_junk', 'ses_rename', 'ses_shell']);
    }));

  it('`search` finds what the sessions of a channel database said', () =>
    withHome(async (home, dir) => {
      buildDb(path.join(dir, 'opencode-stable.db'), 'v2');
      const run = await runCli(['search', 'readConfig', '--agent', 'opencode', '--json'], { env: home.env, timeoutMs: 60_000 });
      expect(run.code).toBe(0);
      const results = JSON.parse(run.stdout) as { session_id: string }[];
      expect(results.map((r) => r.session_id)).toContain('ses_rename');
    }));
});
