import { spawn } from 'node:child_process';
import { appendFile, chmod, mkdir, readFile, rename, rm, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { claude } from '../../src/sources/claude/index.js';
import { kiloDbPath } from '../../src/sources/kilo/paths.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { CLI_PATH, runCli } from '../helpers/cli.js';
import { useFixtureHome, waitFor, type Run } from '../helpers/source-harness.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { fixtureSql } from '../sources/sqlite/helpers.js';

/**
 * The probe's file cases, end to end: junk, a 50 MB line, a 1 GB sparse file, corrupt and locked
 * databases (the one-shot CLI), and delete / truncate / rename under a live watch. Each asserts
 * no crash, nothing lost of the healthy data, bounded memory, and nothing written to the agents'
 * files, and that a corrupt or locked database is said on stderr. Unreadable directories, oversized
 * records and every committed SQLite change are asserted by test/commands/doctor.test.ts,
 * test/sources/jsonl/tail.test.ts and test/sources/sqlite/live.test.ts.
 */

const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;
const prompt = (text: string, ts: string): string => line({ type: 'user', cwd: '/home/dev/shop', message: { role: 'user', content: text }, timestamp: ts });
const answer = (text: string, ts: string): string =>
  line({ type: 'assistant', cwd: '/home/dev/shop', message: { role: 'assistant', content: [{ type: 'text', text }] }, timestamp: ts });

interface Listed {
  readonly session_id: string;
  readonly agent: string;
  readonly total_messages: number;
  readonly recent_messages: readonly { text?: string; content?: string }[];
}

/** `agentwatch sessions --all --json` under /usr/bin/time, for the child's peak RSS (KiB). */
const sessionsWithPeakRss = (env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; peakKiB: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'PEAK_RSS_KIB=%M', process.execPath, CLI_PATH, 'sessions', '--all', '--json'], { env, cwd: env.HOME, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const peak = /PEAK_RSS_KIB=(\d+)/.exec(stderr);
      resolve({ code, stdout, stderr: stderr.replace(/PEAK_RSS_KIB=\d+\n?/, ''), peakKiB: peak ? Number(peak[1]) : Number.NaN });
    });
  });

describe('junk, a 50 MB line and a 1 GB sparse file (one-shot CLI)', () => {
  it('lists every healthy session exactly, with bounded memory, and changes no transcript', async () => {
    const temp = await makeTempHome('agentwatch-rel-files-');
    try {
      const project = path.join(temp.home, '.claude', 'projects', '-home-dev-shop');
      await mkdir(project, { recursive: true });
      const healthy = prompt('hello', '2026-11-21T10:00:00.000Z') + answer('hi there', '2026-11-21T10:00:01.000Z');
      await writeFile(path.join(project, 'healthy.jsonl'), healthy);
      const junk = [
        prompt('before the junk', '2026-11-21T10:01:00.000Z'),
        '\u0000\u0000\u0000binary\u0000\n',
        '{not json\n',
        '[]\n',
        '42\n',
        `${'#'.repeat(1024 * 1024)}\n`,
        Buffer.from([0xff, 0xfe, 0xfd, 0x0a]).toString('latin1'),
        answer('after the junk', '2026-11-21T10:01:05.000Z'),
      ].join('');
      await writeFile(path.join(project, 'junk.jsonl'), junk, 'latin1');
      // A 50 MB line (what item 8 reports is the sources suite's), then a normal answer.
      const giant = path.join(project, 'giant.jsonl');
      await writeFile(giant, prompt('before the giant', '2026-11-21T10:02:00.000Z'));
      await appendFile(giant, line({ type: 'user', message: { role: 'user', content: 'x'.repeat(50 * 1024 * 1024) }, timestamp: '2026-11-21T10:02:01.000Z' }));
      await appendFile(giant, answer('after the giant', '2026-11-21T10:02:05.000Z'));
      // 1 GB of holes: no disk used, and not one complete line.
      const sparse = path.join(project, 'sparse.jsonl');
      await writeFile(sparse, prompt('a real start', '2026-11-21T10:03:00.000Z'));
      await truncate(sparse, 1024 * 1024 * 1024);
      const before = await Promise.all(['healthy', 'junk'].map((name) => readFile(path.join(project, `${name}.jsonl`))));

      const started = Date.now();
      const result = await sessionsWithPeakRss(temp.env);
      const ms = Date.now() - started;
      expect(result.code, result.stderr).toBe(0);
      const sessions = new Map((JSON.parse(result.stdout) as Listed[]).map((s) => [s.session_id, s]));
      expect(sessions.get('healthy')).toMatchObject({ agent: 'claude', total_messages: 2 });
      expect(sessions.get('junk')).toMatchObject({ total_messages: 2 });
      expect(sessions.get('giant')?.total_messages).toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(sessions.get('giant'))).toContain('after the giant');
      expect(JSON.stringify(sessions.get('junk'))).toContain('after the junk');
      // The sparse file's first line is read; its gigabyte of NULs is never held in memory.
      expect(sessions.has('sparse')).toBe(true);
      expect(result.peakKiB).toBeLessThan(400 * 1024);
      expect(ms).toBeLessThan(45_000);
      const after = await Promise.all(['healthy', 'junk'].map((name) => readFile(path.join(project, `${name}.jsonl`))));
      expect(after).toEqual(before);
      console.log(`sessions --all over junk + 50 MB line + 1 GB sparse file: ${ms} ms, peak RSS ${Math.round(result.peakKiB / 1024)} MiB`);
    } finally {
      await temp.cleanup();
    }
  }, 90_000);
});

describe('corrupt and locked databases (one-shot CLI)', () => {
  it('a corrupt opencode.db and a locked kilo.db: exit 0, the other agents listed, neither file changed; kilo read once unlocked', async () => {
    const temp = await makeTempHome('agentwatch-rel-db-');
    let locker: BetterSqlite3.Database | undefined;
    try {
      const project = path.join(temp.home, '.claude', 'projects', '-home-dev-shop');
      await mkdir(project, { recursive: true });
      await writeFile(path.join(project, 'healthy.jsonl'), prompt('hello', '2026-11-21T10:00:00.000Z'));
      const corrupt = opencodeDbPath(temp.env);
      await mkdir(path.dirname(corrupt), { recursive: true });
      const garbage = Buffer.from('SQLite format 3\u0000'.padEnd(4096, '\u00ff'), 'latin1');
      await writeFile(corrupt, garbage);
      const kilo = kiloDbPath(temp.env);
      await mkdir(path.dirname(kilo), { recursive: true });
      new BetterSqlite3(kilo).exec(`${fixtureSql('kilo', 'schema')}${fixtureSql('kilo', 'data')}`).close();
      locker = new BetterSqlite3(kilo);
      locker.exec('BEGIN EXCLUSIVE');
      locker.exec(`UPDATE session SET title = title`);
      const kiloBefore = await readFile(kilo);

      const locked = await runCli(['sessions', '--all', '--json'], { env: temp.env, timeoutMs: 30_000 });
      expect(locked.code, locked.stderr).toBe(0);
      const agents = (JSON.parse(locked.stdout) as Listed[]).map((s) => s.agent);
      expect(agents).toContain('claude');
      expect(agents).not.toContain('opencode');
      expect(await readFile(corrupt)).toEqual(garbage);
      // Silence is a bug: both are said on stderr, with a pointer to doctor.
      expect(locked.stderr).toMatch(/opencode: .*opencode\.db/);
      // kilo: either read (a reader may still see the last commit) or said to be locked, never silent.
      if (!agents.includes('kilo')) expect(locked.stderr, locked.stderr).toMatch(/kilo: .*(lock|busy)/i);
      expect(locked.stderr).toContain('agentwatch doctor');

      locker.exec('ROLLBACK');
      locker.close();
      locker = undefined;
      expect(await readFile(kilo)).toEqual(kiloBefore);
      const unlocked = await runCli(['sessions', '--all', '--json'], { env: temp.env, timeoutMs: 30_000 });
      expect(unlocked.code, unlocked.stderr).toBe(0);
      expect((JSON.parse(unlocked.stdout) as Listed[]).filter((s) => s.agent === 'kilo').length).toBeGreaterThan(0);
    } finally {
      locker?.close();
      await temp.cleanup();
    }
  }, 60_000);
});

describe('delete, truncate, rename and chmod under a live watch', () => {
  const fx = useFixtureHome('agentwatch-rel-watch-', async (home) => {
    const project = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
    await mkdir(project, { recursive: true });
    for (const id of ['keep', 'gone', 'cut', 'moved']) {
      await writeFile(path.join(project, `${id}.jsonl`), prompt(`${id} 1`, '2026-11-21T10:00:00.000Z') + answer(`${id} 2`, '2026-11-21T10:00:01.000Z'));
    }
  });
  const texts = (run: Run, id: string): string[] =>
    run.events.flatMap((e) => (e.type === 'turn' && e.sessionId === id && e.text ? [e.text] : []));

  it('ends on the exact state of the files: deleted gone, truncated re-read, renamed under its new id, untouched intact', async () => {
    const project = path.join(fx.home.home, '.claude', 'projects', '-home-dev-shop');
    const run = await fx.ready(claude);
    expect([...run.sessions().keys()].sort()).toEqual(['cut', 'gone', 'keep', 'moved']);

    await rm(path.join(project, 'gone.jsonl'));
    await truncate(path.join(project, 'cut.jsonl'), 0);
    await appendFile(path.join(project, 'cut.jsonl'), prompt('cut again', '2026-11-21T10:05:00.000Z'));
    await rename(path.join(project, 'moved.jsonl'), path.join(project, 'arrived.jsonl'));
    // chmod 000 while it grows, then back: for an ordinary user the reads fail meanwhile and must
    // resume; as root permission bits do not stop reads, so there this only proves no crash.
    const keep = path.join(project, 'keep.jsonl');
    await chmod(keep, 0o000);
    await appendFile(keep, answer('keep 3', '2026-11-21T10:06:00.000Z'));
    await chmod(keep, 0o600);
    await appendFile(keep, '');

    await waitFor('the final state', () => {
      const ids = [...run.sessions().keys()].sort().join(',');
      return ids === 'arrived,cut,keep' && texts(run, 'cut').includes('cut again') && texts(run, 'keep').includes('keep 3');
    }, 30_000);
    const sessions = run.sessions();
    expect(sessions.get('cut')).toMatchObject({ userMessages: 1, assistantMessages: 0 });
    expect(sessions.get('arrived')).toMatchObject({ userMessages: 1, assistantMessages: 1 });
    expect(sessions.get('keep')).toMatchObject({ userMessages: 1, assistantMessages: 2 });
    expect(run.errors).toEqual([]);
  });
});
