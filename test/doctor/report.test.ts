import { describe, expect, it } from 'vitest';
import type { DiagnosticEvent, SessionState } from '../../src/core/session.js';
import { renderDoctor } from '../../src/doctor/render.js';
import { agentReport, oneShotMessage, problemsOf, type DoctorReport } from '../../src/doctor/report.js';
import { emptySession } from '../../src/streams/empty-session.js';

const junk = (line: number): DiagnosticEvent => ({ type: 'diagnostic', agent: 'claude', code: 'E_JUNK_LINE', message: 'not a JSON object', path: '/p/a.jsonl', line });

describe('doctor report (pure)', () => {
  it('lists every diagnostic, and one that needs the user is a problem however many come before it', () => {
    const unreadable: DiagnosticEvent = { type: 'diagnostic', agent: 'claude', code: 'E_READ', message: 'cannot read directory /p/locked: EACCES (its sessions are not shown)', path: '/p/locked' };
    const diagnostics = [...Array.from({ length: 60 }, (_, i) => junk(i + 2)), unreadable];
    const claude = agentReport('claude', true, [], [], diagnostics);
    expect(claude.diagnostics).toHaveLength(61);
    expect(claude.diagnostics.at(-1)).toMatchObject({ name: 'read', severity: 'attention', path: '/p/locked' });
    expect(claude.diagnostic_counts).toEqual({ junk_line: 60, read: 1 });
    const problems = problemsOf({
      config: { path: '/c/config.json', valid: true, warnings: [], unknown_keys: [], session_names: { path: '/c/session-names.json' } },
      agents: [claude],
      api: { passphrase: 'set', note: '' },
      webhooks: [],
    });
    expect(problems).toEqual(['claude: cannot read directory /p/locked: EACCES (its sessions are not shown)']);
  });

  it('counts what is a session as `sessions --all` lists one: an empty or junk-only transcript is a file, not a session', () => {
    const dated = (id: string, extra: Partial<SessionState> = {}): SessionState => ({ ...emptySession('claude', id), path: `/p/${id}.jsonl`, cwd: '/w', lastActivityAt: 1_700_000_000_000, userMessages: 1, ...extra });
    const states: SessionState[] = [
      dated('real'),
      dated('sub', { isSidechain: true }),
      dated('hidden', { cwd: '/w/secret' }),
      // An empty transcript and one of junk lines only: no dated record, listed by no command.
      { ...emptySession('claude', 'empty'), path: '/p/empty.jsonl' },
      { ...emptySession('claude', 'junk'), path: '/p/junk.jsonl' },
    ];
    const claude = agentReport('claude', true, [], states, [], { excludeCwdSubstrings: ['secret'] });
    expect(claude).toMatchObject({ files: 5, sessions: 1, subagent_sessions: 1, excluded_sessions: 1, files_without_session: 2 });
    // grok and kimi: a session without a prompt is not one either (sessions leaves it out).
    const grok = agentReport('grok', true, [], [{ ...dated('no-prompt'), agent: 'grok', userMessages: 0 }], []);
    expect(grok).toMatchObject({ files: 1, sessions: 0, files_without_session: 1 });
    const text = renderDoctor(reportOf([claude]));
    expect(text).toContain('claude: 1 session (+1 sub-agent; 1 more hidden by exclude_cwd_substrings) in 5 files (2 hold no session: empty, junk only or nothing dated yet)\n');
  });

  it('a database that is there but could not be read is not "ok", and the one-shot wording promises no poll', () => {
    const corrupt: DiagnosticEvent = {
      type: 'diagnostic',
      agent: 'opencode',
      code: 'E_DB_CORRUPT',
      message: 'OpenCode: database /d/opencode.db is corrupt or not a database (file is not a database); retrying on the next poll',
      path: '/d/opencode.db',
    };
    const opencode = agentReport('opencode', true, [{ path: '/d/opencode.db', state: 'found' }], [], [corrupt]);
    expect(opencode.locations).toEqual([{ path: '/d/opencode.db', state: 'unreadable', detail: 'corrupt or not a database: see db_corrupt below', diagnostic: 'db_corrupt' }]);
    expect(opencode.diagnostics[0]?.message).toBe('OpenCode: database /d/opencode.db is corrupt or not a database (file is not a database)');
    const report = reportOf([opencode]);
    // One problem, the diagnostic's: the place is not a second one.
    expect(report.problems).toEqual(['opencode: OpenCode: database /d/opencode.db is corrupt or not a database (file is not a database)']);
    const text = renderDoctor(report);
    expect(text).toContain('looked in /d/opencode.db: UNREADABLE (corrupt or not a database: see db_corrupt below)\n');
    expect(text).not.toMatch(/: ok\n|next poll/);
    expect(oneShotMessage('Kilo: database /k.db is locked (SQLITE_BUSY); retrying on the next poll')).toBe('Kilo: database /k.db is locked (SQLITE_BUSY)');
  });

  it('no agent data anywhere is a problem that says how to point agentwatch at data elsewhere; an unreadable place says more, alone', () => {
    const empty = reportOf([agentReport('claude', true, [], [], []), agentReport('codex', true, [], [], []), agentReport('pi', false, [], [], [])]);
    expect(empty.healthy).toBe(false);
    expect(empty.problems).toEqual([
      "no agent data: no agent has written a session where agentwatch looks (above). If your agents keep their data elsewhere, point agentwatch at it with the agents' own variables (CLAUDE_CONFIG_DIR, CODEX_HOME) or claude_dirs in the config; agentwatch --demo shows agentwatch at work",
    ]);
    const session: SessionState = { ...emptySession('codex', 'c1'), path: '/p/c1.jsonl', cwd: '/w', lastActivityAt: 1_700_000_000_000, userMessages: 1 };
    expect(reportOf([agentReport('claude', true, [], [], []), agentReport('codex', true, [], [session], [])]).healthy).toBe(true);
    const unreadable: DiagnosticEvent = { type: 'diagnostic', agent: 'claude', code: 'E_READ', message: 'cannot read directory /p: EACCES', path: '/p' };
    expect(reportOf([agentReport('claude', true, [], [], [unreadable])]).problems).toEqual(['claude: cannot read directory /p: EACCES']);
  });

  it('a damaged session-names.json is a config problem, listed and in --json', () => {
    const problem = '/c/session-names.json is not a JSON object of names; ignoring it (custom names are not shown until it is fixed; the next rename moves it aside)';
    const report = reportOf([], { session_names: { path: '/c/session-names.json', problem } });
    expect(report.healthy).toBe(false);
    expect(report.problems).toEqual([`config: ${problem}`]);
    expect(renderDoctor(report)).toContain(`  warning: ${problem}\n`);
  });
});

/** A whole report around some agents' parts, as the command builds it. */
const reportOf = (agents: DoctorReport['agents'], config: Partial<DoctorReport['config']> = {}): DoctorReport => {
  const partial = {
    config: { path: '/c/config.json', valid: true, warnings: [], unknown_keys: [], session_names: { path: '/c/session-names.json' }, ...config },
    agents,
    api: { passphrase: 'set' as const, note: '' },
    webhooks: [],
  };
  const problems = problemsOf(partial);
  return { healthy: problems.length === 0, problems, ...partial };
};
