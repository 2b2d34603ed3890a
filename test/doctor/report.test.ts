import { describe, expect, it } from 'vitest';
import type { DiagnosticEvent } from '../../src/core/session.js';
import { agentReport, problemsOf } from '../../src/doctor/report.js';

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
      config: { path: '/c/config.json', valid: true, warnings: [], unknown_keys: [] },
      agents: [claude],
      api: { passphrase: 'set', note: '' },
      webhooks: [],
    });
    expect(problems).toEqual(['claude: cannot read directory /p/locked: EACCES (its sessions are not shown)']);
  });
});
