import { AGENT_LABEL } from '../../src/sources/agents.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { openFamilyReader } from '../../src/sources/sqlite/opencode-family/reader.js';
import { laterHoldersSql, originalsSql } from '../../src/sources/sqlite/opencode-family/v1-forks.js';
import { createSqlitePoller } from '../../src/sources/sqlite/poller.js';
import { fixtureSql, ofType, spendOf } from './sqlite/helpers.js';

// Forks of forks in OpenCode 1.x and Kilo (v1-forks.ts): B forked from A copies A's messages, C
// forked from B copies B's (A's copies included). With A deleted, no original of A's messages is
// left: B's and C's copies of them are all "late", and the earliest made (B's) must count them,
// once. Real database files of the agents' 1.x schema, written as Session.fork writes them.

const MASK_48 = (1n << 48n) - 1n;
const hex12 = (value: bigint): string => (value & MASK_48).toString(16).padStart(12, '0');
/** A message id made at `ms` (Identifier.ascending): 12 hex digits of ms * 0x1000 + counter, then 14 base62 characters. */
const messageId = (ms: number, tail: string): string => `msg_${hex12(BigInt(ms) * 0x1000n + 1n)}${tail.padEnd(14, 'x')}`;
/** A session id made at `ms` (Identifier.descending): the 48-bit complement. */
const sessionId = (ms: number, tail: string): string => `ses_${hex12(~(BigInt(ms) * 0x1000n + 1n))}${tail.padEnd(14, 'x')}`;

interface Message {
  readonly id: string;
  readonly createdMs: number;
  readonly data: Record<string, unknown>;
  readonly text: string;
}

interface Session {
  readonly id: string;
  readonly madeMs: number;
  readonly messages: Message[];
}

/** An exchange written by the session itself at `ms`: a prompt, then an answer with its spend. */
const exchange = (tag: string, ms: number, input: number, cost: number): Message[] => {
  const prompt = messageId(ms, `${tag}u`);
  return [
    { id: prompt, createdMs: ms, data: { role: 'user', time: { created: ms }, agent: 'build' }, text: `prompt ${tag}` },
    {
      id: messageId(ms + 1_000, `${tag}a`),
      createdMs: ms + 1_000,
      data: { parentID: prompt, role: 'assistant', cost, tokens: { input, output: 10, reasoning: 0, cache: { read: 0, write: 0 } }, modelID: 'm', time: { created: ms + 1_000, completed: ms + 5_000 }, finish: 'stop' },
      text: `answer ${tag}`,
    },
  ];
};

/**
 * Session.fork at `ms`: a new session, then a copy of each of `from`'s messages under an id made
 * at the fork, with the original's time_created and data (an answer's parentID renamed to the copy
 * of its prompt; Kilo also zeroes a copied answer's cost).
 */
const fork = (from: Session, ms: number, tag: string, options: { zeroCost?: boolean } = {}): Session => {
  const renamed = new Map<string, string>();
  const messages = from.messages.map((message, i) => {
    const id = messageId(ms + 1 + i, `${tag}${i}`);
    renamed.set(message.id, id);
    const data: Record<string, unknown> = { ...message.data };
    if (typeof data['parentID'] === 'string') data['parentID'] = renamed.get(data['parentID']) ?? data['parentID'];
    if (options.zeroCost && data['role'] === 'assistant') data['cost'] = 0;
    return { ...message, id, data };
  });
  return { id: sessionId(ms, tag), madeMs: ms, messages };
};

const withOwn = (session: Session, own: Message[]): Session => ({ ...session, messages: [...session.messages, ...own] });

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-v1-fork-chain-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real database file of the agent's 1.x schema holding `sessions`; one poll of it. */
const pollOf = (name: string, sessions: readonly Session[], agent: 'opencode' | 'kilo' = 'opencode'): SessionEvent[] => {
  const file = path.join(dir, `${name}.db`);
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.exec(fixtureSql(agent, 'schema'));
  db.prepare(`INSERT INTO project (id, ${agent === 'kilo' ? 'directory' : 'worktree'}, time_created, time_updated) VALUES ('prj', '/w', 0, 0)`).run();
  const insertSession = db.prepare(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj', 's', '/w', ?, '1.3.10', ?, ?)`);
  const insertMessage = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
  const insertPart = db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)');
  for (const session of sessions) {
    insertSession.run(session.id, session.id, session.madeMs, session.madeMs);
    for (const message of session.messages) {
      insertMessage.run(message.id, session.id, message.createdMs, message.createdMs, JSON.stringify(message.data));
      insertPart.run(message.id.replace('msg_', 'prt_'), message.id, session.id, message.createdMs, message.createdMs, JSON.stringify({ type: 'text', text: message.text }));
    }
  }
  db.close();
  const poller = createSqlitePoller({ agent, label: AGENT_LABEL[agent], dbPath: file, openReader: openFamilyReader({ agent, label: AGENT_LABEL[agent], resumeCommand: (id) => id }) });
  try {
    return [...poller.poll(1790500000000)];
  } finally {
    poller.close();
  }
};

const T = 1790400000000;
const MINUTE = 60_000;
/** A: two exchanges. B: forked from A after the first, then one of its own. C: forked from B after that, then one of its own. */
const chain = (options: { zeroCost?: boolean } = {}) => {
  const a: Session = { id: sessionId(T, 'A'), madeMs: T, messages: [...exchange('a1', T + 1_000, 1000, 0.01), ...exchange('a2', T + 20_000, 2000, 0.02)] };
  const b = withOwn(fork({ ...a, messages: a.messages.slice(0, 2) }, T + 10 * MINUTE, 'B', options), exchange('b1', T + 11 * MINUTE, 300, 0.003));
  const c = withOwn(fork(b, T + 20 * MINUTE, 'C', options), exchange('c1', T + 21 * MINUTE, 40, 0.0004));
  return { a, b, c };
};

const spend = (input: number, cost: number, messages: number) => ({
  tokens: { input, output: 10 * messages, cacheCreation: 0, cacheRead: 0 },
  cost,
  userMessages: messages,
  assistantMessages: messages,
});

describe('OpenCode 1.x: a fork of a fork (A -> B -> C)', () => {
  it('with A present: A counts its messages, B and C only their own (as before)', () => {
    const { a, b, c } = chain();
    const events = pollOf('chain-present', [a, b, c]);
    expect(spendOf(events, a.id)).toEqual(spend(3000, 0.03, 2));
    expect(spendOf(events, b.id)).toEqual(spend(300, 0.003, 1));
    expect(spendOf(events, c.id)).toEqual(spend(40, 0.0004, 1));
  });

  it("with A deleted: A's first exchange counts once, in B (its copies were made first); C counts only its own", () => {
    const { b, c } = chain();
    const events = pollOf('chain-a-deleted', [b, c]);
    expect(spendOf(events, b.id)).toEqual(spend(1300, 0.013, 2));
    expect(spendOf(events, c.id)).toEqual(spend(40, 0.0004, 1));
    // The copies are still C's history, read as history.
    expect(ofType(events, 'turn').filter((t) => t.sessionId === c.id).map((t) => [t.text, t.counts])).toEqual([
      ['prompt a1', false],
      ['answer a1', false],
      ['prompt b1', false],
      ['answer b1', false],
      ['prompt c1', undefined],
      ['answer c1', undefined],
    ]);
  });

  it('with A and B deleted: C, the only holder left, counts everything (fail open)', () => {
    const { c } = chain();
    expect(spendOf(pollOf('chain-only-c', [c]), c.id)).toEqual(spend(1340, 0.0134, 3));
  });

  it('a fork of C (A -> B -> C -> D, A deleted): still once, in B', () => {
    const { b, c } = chain();
    const d = withOwn(fork(c, T + 30 * MINUTE, 'D'), exchange('d1', T + 31 * MINUTE, 5, 0.00005));
    const events = pollOf('chain-d', [b, c, d]);
    expect(spendOf(events, b.id)).toEqual(spend(1300, 0.013, 2));
    expect(spendOf(events, c.id)).toEqual(spend(40, 0.0004, 1));
    expect(spendOf(events, d.id)).toEqual(spend(5, 0.00005, 1));
  });

  it('two forks of a deleted session (siblings): its messages count once, in the fork made first', () => {
    const { a } = chain();
    const first = withOwn(fork(a, T + 10 * MINUTE, 'S1'), exchange('s1', T + 11 * MINUTE, 7, 0.00007));
    const second = withOwn(fork(a, T + 40 * MINUTE, 'S2'), exchange('s2', T + 41 * MINUTE, 9, 0.00009));
    const events = pollOf('siblings', [second, first]);
    expect(spendOf(events, first.id)).toEqual(spend(3007, 0.03007, 3));
    expect(spendOf(events, second.id)).toEqual(spend(9, 0.00009, 1));
  });

  it('a later copy no longer identical to the earlier one counts (fail open); the earlier one still counts its own', () => {
    const { b, c } = chain();
    const changed: Session = { ...c, messages: c.messages.map((m, i) => (i === 1 ? { ...m, data: { ...m.data, cost: 0.5 } } : m)) };
    const events = pollOf('chain-changed', [b, changed]);
    expect(spendOf(events, b.id)).toEqual(spend(1300, 0.013, 2));
    // Its copy of A's prompt is still a copy; the changed answer and its own exchange count.
    expect(spendOf(events, changed.id)).toEqual({ tokens: { input: 1040, output: 20, cacheCreation: 0, cacheRead: 0 }, cost: 0.5004, userMessages: 1, assistantMessages: 2 });
  });
});

describe('what is never taken for a copy', () => {
  it('sessions with messages of the same time_created and data but ids made at that time (no fork: two sub-agents started in the same ms) both count', () => {
    const ms = T + 5 * MINUTE;
    const twin = (tag: string): Session => {
      const prompt = messageId(ms, `${tag}u`);
      return {
        id: sessionId(ms - 1_000, tag),
        madeMs: ms - 1_000,
        messages: [
          { id: prompt, createdMs: ms, data: { role: 'user', time: { created: ms }, agent: 'general' }, text: 'same' },
          { id: messageId(ms + 1_000, `${tag}a`), createdMs: ms + 1_000, data: { role: 'assistant', cost: 0.01, tokens: { input: 100, output: 10 }, time: { created: ms + 1_000 } }, text: 'same' },
        ],
      };
    };
    const [x, y] = [twin('X'), twin('Y')];
    const events = pollOf('twins', [x, y]);
    expect(spendOf(events, x.id)).toEqual(spendOf(events, y.id));
    expect(spendOf(events, x.id)).toMatchObject({ cost: 0.01, userMessages: 1, assistantMessages: 1 });
  });

  it("a lone fork of a deleted session beside an unrelated session made before the fork's messages: the fork counts everything", () => {
    const { a } = chain();
    const lone = fork(a, T + 10 * MINUTE, 'L');
    const earlier: Session = { id: sessionId(T - 60 * MINUTE, 'E'), madeMs: T - 60 * MINUTE, messages: exchange('e1', T - 59 * MINUTE, 50, 0.0005) };
    const events = pollOf('lone', [lone, earlier]);
    expect(spendOf(events, lone.id)).toEqual(spend(3000, 0.03, 2));
    expect(spendOf(events, earlier.id)).toEqual(spend(50, 0.0005, 1));
  });
});

describe('Kilo (copies with their cost zeroed): A -> B -> C with A deleted', () => {
  it("A's first exchange counts once, in B, tokens and all", () => {
    const { b, c } = chain({ zeroCost: true });
    const events = pollOf('kilo-chain', [b, c], 'kilo');
    expect(spendOf(events, b.id)).toEqual(spend(1300, 0.003, 2));
    expect(spendOf(events, c.id)).toEqual(spend(40, 0.0004, 1));
  });
});

describe('across the wrap of message and session ids (every 2^36 ms)', () => {
  it('a chain forked across the wrap counts once', () => {
    const wrap = 27 * 2 ** 36;
    const a: Session = { id: sessionId(wrap - 30 * MINUTE, 'A'), madeMs: wrap - 30 * MINUTE, messages: exchange('a1', wrap - 29 * MINUTE, 1000, 0.01) };
    const b = withOwn(fork(a, wrap - 5 * MINUTE, 'B'), exchange('b1', wrap - 4 * MINUTE, 300, 0.003));
    const c = withOwn(fork(b, wrap + 10 * MINUTE, 'C'), exchange('c1', wrap + 11 * MINUTE, 40, 0.0004));
    const events = pollOf('wrap', [b, c]);
    expect(spendOf(events, b.id)).toEqual(spend(1300, 0.013, 2));
    expect(spendOf(events, c.id)).toEqual(spend(40, 0.0004, 1));
  });
});

describe('the queries stay index searches', () => {
  it('originals by the primary key of message; later holders by the primary key of session and the (session_id, time_created, id) index', () => {
    const db = new BetterSqlite3(':memory:');
    db.exec(fixtureSql('opencode', 'schema'));
    const plan = (sql: string, params: Record<string, unknown>): string[] =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((row) => row.detail);
    const originals = plan(originalsSql, { ranges: '[]', session: 's' });
    expect(originals.filter((d) => /\bm\b/.test(d))).toEqual([expect.stringMatching(/^SEARCH m USING INDEX sqlite_autoindex_message_1 \(id>\? AND id<\?\)$/)]);
    const later = plan(laterHoldersSql, { sessions: '[]', from: 0, to: 0, session: 's' });
    expect(later.filter((d) => /\b(s|m)\b/.test(d))).toEqual([
      expect.stringMatching(/^SEARCH s USING (COVERING )?INDEX sqlite_autoindex_session_1 \(id>\? AND id<\?\)$/),
      expect.stringMatching(/^SEARCH m USING INDEX message_session_time_created_id_idx \(session_id=\? AND time_created>\? AND time_created<\?\)$/),
    ]);
    db.close();
  });
});
