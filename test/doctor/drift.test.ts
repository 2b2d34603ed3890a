import { describe, expect, it } from 'vitest';
import type { DiagnosticEvent, SessionState } from '../../src/core/session.js';
import { agentDrift, isNewerThanChecked, newestChecked } from '../../src/doctor/drift.js';
import { renderDoctor } from '../../src/doctor/render.js';
import { agentReport, type DoctorReport } from '../../src/doctor/report.js';
import { emptySession } from '../../src/streams/empty-session.js';

const session = (id: string, version: string): SessionState => ({ ...emptySession('codex', id), path: `/r/${id}.jsonl`, cwd: '/w', lastActivityAt: 1_800_000_000_000, userMessages: 1, version });
const unknown = (sessionId: string, version: string, type: string, line: number): DiagnosticEvent => ({
  type: 'diagnostic',
  agent: 'codex',
  code: 'E_UNKNOWN_RECORD',
  message: `record type "${type}" is not known to this version of agentwatch (written by Codex ${version}); skipped`,
  sessionId,
  path: `/r/${sessionId}.jsonl`,
  line,
  version,
});

describe('doctor: drift between the versions a reader was checked against and the ones on this machine', () => {
  it('finds the newest version a descriptor names, ranges and labels included', () => {
    expect(newestChecked(['0.104 (Desktop)', '0.118', '0.135-0.160'])).toEqual([0, 160]);
    expect(isNewerThanChecked('0.161.0', ['0.135-0.160'])).toBe(true);
    expect(isNewerThanChecked('0.160.0', ['0.135-0.160'])).toBe(false);
    expect(isNewerThanChecked('session format 4', ['0.58.3'])).toBe(false);
    expect(isNewerThanChecked('chat format 2', ['chat format 1'])).toBe(true);
    expect(isNewerThanChecked('', ['1.0'])).toBe(false);
  });

  it('per version: sessions seen, newer or not; unknown records with kinds, files, an example file:line and the sessions concerned', () => {
    const drift = agentDrift(
      ['0.135-0.160'],
      [session('a', '0.154.0'), session('b', '0.170.0'), session('c', '0.170.0')],
      [unknown('b', '0.170.0', 'turn_plan', 4), unknown('c', '0.170.0', 'turn_plan', 9), unknown('c', '0.170.0', 'usage_ledger', 12)],
    );
    expect(drift.seen_versions).toEqual([
      { version: '0.154.0', sessions: 1, newer: false },
      { version: '0.170.0', sessions: 2, newer: true },
    ]);
    expect(drift.unknown_records).toEqual([
      {
        version: '0.170.0',
        newer: true,
        kinds: [
          { kind: 'record type "turn_plan"', files: 2 },
          { kind: 'record type "usage_ledger"', files: 1 },
        ],
        example: '/r/b.jsonl:4',
        sessions: ['b', 'c'],
      },
    ]);
  });

  it('the text report says it under the agent', () => {
    const codex = agentReport('codex', true, [], [session('b', '0.170.0')], [unknown('b', '0.170.0', 'turn_plan', 4)]);
    const report: DoctorReport = {
      healthy: true,
      problems: [],
      config: { path: '/c', valid: true, warnings: [], unknown_keys: [], session_names: { path: '/n' } },
      agents: [codex],
      api: { passphrase: 'set', note: '' },
      webhooks: [],
    };
    const text = renderDoctor(report);
    expect(text).toContain('  reader checked against 0.104 (Desktop), 0.118, 0.125, 0.128 (Desktop), 0.135-0.160; seen here: 0.170.0 (1 session, NEWER)\n');
    expect(text).toContain('  ! codex 0.170.0, newer than checked, writes records this reader does not know: record type "turn_plan" (1 file); e.g. /r/b.jsonl:4\n');
    expect(text).toContain('    sessions that may be shown incomplete: b\n');
  });
});

describe('doctor: an agent that stopped writing its sessions here', () => {
  const amp = (updated: string): SessionState => ({ ...emptySession('amp', `T-${updated}`), path: `/a/${updated}.json`, cwd: '/w', lastActivityAt: Date.parse(updated), userMessages: 1 });

  it('Amp with no thread file newer than 2026-03-31 (or none at all): a note says where its threads went', () => {
    for (const sessions of [[], [amp('2026-03-20T10:00:00Z')]]) {
      const report = agentReport('amp', true, [], sessions, []);
      expect(report.notes).toEqual([expect.stringContaining('writes no local thread files since about 2026-03-31')]);
      expect(renderDoctor({ healthy: true, problems: [], config: { path: '/c', valid: true, warnings: [], unknown_keys: [], session_names: { path: '/n' } }, agents: [report], api: { passphrase: 'set', note: '' }, webhooks: [] })).toContain(
        '  note: Amp keeps new threads on its servers',
      );
    }
    // A thread exported since (agentwatch's refresh): nothing to explain.
    expect(agentReport('amp', true, [], [amp('2026-05-02T10:00:00Z')], []).notes).toEqual([]);
    expect(agentReport('claude', true, [], [], []).notes).toEqual([]);
  });
});
