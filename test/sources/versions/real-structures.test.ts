import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionDetail, SessionEvent, SessionState } from '../../../src/core/session.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import type { FileParser } from '../../../src/sources/internal/file-parser.js';
import { initialFoldState, reduceSessions } from '../../../src/streams/sessions-reducer.js';
import { toDetail } from '../../../src/streams/views.js';
import { isVisible } from '../../../src/streams/visibility.js';

/**
 * The misreads found on real transcripts, each on a fixture that reproduces the real
 * structure of the agent version that wrote it (written for these tests; no third-party file).
 * Records in through the real parser and fold, the session's view out at a chosen instant.
 */
const fixture = (agent: string, name: string): string => fileURLToPath(new URL(`../../../fixtures/${agent}/versions/${name}`, import.meta.url));

const replay = (parser: FileParser, file: string): SessionEvent[] => [
  ...parser.start(),
  ...readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => parser.line(Buffer.from(line))),
];

const foldAll = (events: readonly SessionEvent[]): SessionState[] => [...reduceSessions(initialFoldState([]), events).state.sessions.values()];

const claudeSession = (name: string, lines?: number): { state: SessionState; at: (iso: string) => SessionDetail } => {
  const file = fixture('claude', name);
  const sessionId = name.replace(/\.jsonl$/, '');
  let events = replay(createClaudeParser(file, { kind: 'main', sessionId }, false), file);
  if (lines !== undefined) {
    const parser = createClaudeParser(file, { kind: 'main', sessionId }, false);
    const text = readFileSync(file, 'utf8').split('\n').slice(0, lines);
    events = [...parser.start(), ...text.flatMap((line) => parser.line(Buffer.from(line)))];
  }
  const [state] = foldAll(events);
  if (!state) throw new Error(`no session folded from ${name}`);
  return { state, at: (iso) => toDetail(state, { now: Date.parse(iso) }) };
};

const visibleAt = (state: SessionState, iso: string): boolean =>
  isVisible(state, Date.parse(iso), { windowMinutes: 30, excludeCwdSubstrings: [], agents: new Set(['claude', 'codex']) });

describe('Claude Code 1.0.98: sub-agent turns written inline with isSidechain', () => {
  it('the file is a main session, listed, and the inline lines do not decide its activity', () => {
    const { state, at } = claudeSession('1.0.98-inline-sidechain.jsonl');
    expect(state.isSidechain).toBe(false);
    expect(visibleAt(state, '2025-09-01T10:01:00Z')).toBe(true);
    // The main answer at 10:00:11 decides: waiting 60 s later.
    expect(at('2025-09-01T10:01:11Z')).toMatchObject({ activity: 'waiting', last_activity: '2025-09-01T10:00:11.000Z', user_messages: 1, assistant_messages: 2 });
  });

  it('while the Task runs, the sub-agent\'s Grep does not paint the main session and does not move its last activity', () => {
    // Cut after the sidechain's tool result (line 6): the main session's last own record is the Task call.
    const { at } = claudeSession('1.0.98-inline-sidechain.jsonl', 6);
    expect(at('2025-09-01T10:00:06Z')).toMatchObject({ activity: 'spawning', current_tool: 'Task', last_activity: '2025-09-01T10:00:03.400Z' });
  });

  it('counts the usage of the inline sub-agent lines in the session (the user paid for it)', () => {
    const { at } = claudeSession('1.0.98-inline-sidechain.jsonl');
    // msg_01A counted once (its last line), the two sidechain responses, msg_01B.
    expect(at('2025-09-01T10:01:11Z')).toMatchObject({ input_tokens: 4 + 3 + 3 + 5, output_tokens: 60 + 40 + 25 + 30 });
  });

  it('says how much of the totals the inline sub-agent spent: one run, its two responses', () => {
    const { state, at } = claudeSession('1.0.98-inline-sidechain.jsonl');
    const { subagents, cost_usd } = at('2025-09-01T10:01:11Z');
    expect(subagents).toMatchObject({ sessions: 1, input_tokens: 3 + 3, output_tokens: 40 + 25 });
    expect(subagents.cost_usd).toBeGreaterThan(0);
    expect(subagents.cost_usd).toBeLessThan(cost_usd);
    // Part of the totals, not added to them again.
    expect(state.tokens.output).toBe(60 + 40 + 25 + 30);
  });
});

describe('Claude Code 2.0.14: summary records', () => {
  it('a summary whose leafUuid is not in this file names nothing here', () => {
    const { at } = claudeSession('2.0.14-foreign-summary.jsonl');
    expect(at('2025-10-02T08:01:00Z').agent_name).toBe('');
  });

  it('a summary whose leaf is a message of this file names the session, even when written after it', () => {
    const { at } = claudeSession('2.0.14-own-summary.jsonl');
    expect(at('2025-10-02T09:01:00Z').agent_name).toBe('Cart rounding off by one cent');
  });
});

describe('Claude Code 2.1.7: a line holding only a thinking block', () => {
  it('is activity: the session thinks and its last activity moves, 24 s after the compaction it is not idle', () => {
    const { at } = claudeSession('2.1.7-thinking-after-compaction.jsonl');
    expect(at('2026-01-15T14:10:35Z')).toMatchObject({ activity: 'thinking', last_activity: '2026-01-15T14:10:11.000Z' });
    // Nothing after it: 30 s after the thinking block the session is idle.
    expect(at('2026-01-15T14:10:42Z').activity).toBe('idle');
  });
});

describe('Codex Desktop 0.128: prompts only as event_msg user_message', () => {
  const file = fixture('codex', '0.128-desktop-user-message-only.jsonl');
  const [state] = foldAll(replay(createCodexParser(file, 'provisional', false), file));
  const at = (iso: string): SessionDetail => toDetail(state as SessionState, { now: Date.parse(iso) });

  it('counts each prompt once and a fresh prompt reads as thinking', () => {
    expect(at('2026-02-03T16:02:05Z')).toMatchObject({ user_messages: 3, activity: 'thinking', last_activity: '2026-02-03T16:02:00.000Z' });
  });

  it('is a desktop session by its originator', () => {
    expect(at('2026-02-03T16:02:05Z')).toMatchObject({ source: 'desktop', session_id: '019a7e55-1111-7222-8333-944455556666', version: '0.128.0' });
  });

  it('the CLI, which writes each prompt twice (response_item and event_msg), still counts it once', () => {
    const cli = fileURLToPath(new URL('../../../fixtures/codex/.codex/sessions/2026/03/10/rollout-2026-03-10T09-20-11-0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a.jsonl', import.meta.url));
    const text = readFileSync(cli, 'utf8');
    const prompts = text.split('\n').filter((line) => line.includes('"type":"user_message"')).length;
    const [cliState] = foldAll(replay(createCodexParser(cli, 'provisional', false), cli));
    expect(prompts).toBeGreaterThan(0);
    expect(cliState?.userMessages).toBe(prompts);
    expect(cliState?.source).toBe('cli');
  });
});

describe('record types a parser does not know', () => {
  it('codex: counted once per file with the Codex version, never an error, the rest still read', () => {
    const lines = [
      '{"timestamp":"2026-02-03T16:00:00.100Z","type":"session_meta","payload":{"id":"019a7e55-2222-7222-8333-944455556666","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.140.0"}}',
      '{"timestamp":"2026-02-03T16:00:01.000Z","type":"agent_handoff","payload":{"x":1}}',
      '{"timestamp":"2026-02-03T16:00:02.000Z","type":"agent_handoff","payload":{"x":2}}',
      '{"timestamp":"2026-02-03T16:00:03.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}}',
    ];
    const parser = createCodexParser('/r.jsonl', 'p', false);
    const events = lines.flatMap((line) => parser.line(Buffer.from(line)));
    expect(events.filter((e) => e.type === 'diagnostic')).toEqual([
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: '0.140.0', message: expect.stringContaining('"agent_handoff"') }),
    ]);
    expect(events.some((e) => e.type === 'turn')).toBe(true);
  });
});
