import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionKey, SessionState } from '../core/session.js';
import { resumeCommand } from '../streams/views.js';
import { emptySession } from '../streams/empty-session.js';
import { identifierParts, segment } from './segment.js';

/**
 * Turns source events into index rows: each user or assistant message (tool output and thinking
 * never reach `turn.text`) under its session, and the session's facts (cwd, title, resume command,
 * last activity) for the results. A sub-agent's messages are indexed under its parent session.
 * A message seen before (a re-read, a database replay) is skipped by its hash.
 *
 * The last activity of a session is the one the sessions' fold gives it (`observe`), which
 * `agentwatch sessions` shows: its newest record of any kind (a tool result after the last
 * message, a Cursor composer's lastUpdatedAt), not only its newest message.
 *
 * Facts survive across runs in the `sessions` table: a run that resumes a transcript from an
 * offset (and so never sees its cwd again) still knows where it lives and whose sub-agent it is.
 */
interface SessionFacts {
  agent: AgentKind;
  sessionId: string;
  cwd: string;
  title: string;
  resume: string;
  lastActivity: number;
  sidechain: boolean;
  /** The parent session of a sub-agent ('' when none or unknown). */
  parent: string;
  dirty: boolean;
}

export interface Indexer {
  readonly add: (event: SessionEvent) => void;
  /** Takes a session's facts as the sessions' fold has them (its state after the events given to `add`). */
  readonly observe: (state: SessionState) => void;
  /** Writes what was added since the last flush, in one transaction; returns the messages written. */
  readonly flush: () => number;
  /** Messages added and not yet flushed. */
  readonly pending: () => number;
}

interface SessionRow {
  readonly cwd: string;
  readonly title: string;
  readonly resume: string;
  readonly last_activity: number;
  readonly sidechain: number;
  readonly parent: string;
}

/** 64 bits of SHA-1: a collision among a billion messages has odds of about 1 in 40 million. */
const hashOf = (text: string): bigint => createHash('sha1').update(text).digest().readBigInt64BE(0);

export const createIndexer = (db: Database.Database, options: { readonly excluded: (cwd: string) => boolean }): Indexer => {
  const facts = new Map<SessionKey, SessionFacts>();
  let rows: { key: SessionKey; role: 'user' | 'assistant'; at: number; text: string }[] = [];
  const selectSessions = db.prepare<[], SessionRow & { key: string }>('SELECT key, cwd, title, resume, last_activity, sidechain, parent FROM sessions');
  const insertSeen = db.prepare('INSERT OR IGNORE INTO seen (hash) VALUES (?)');
  const insertRow = db.prepare('INSERT INTO messages (text, parts, key, agent, role, at, cwd) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const upsertSession = db.prepare(`
    INSERT INTO sessions (key, agent, session_id, cwd, title, last_activity, resume, sidechain, parent)
    VALUES (@key, @agent, @sessionId, @cwd, @title, @lastActivity, @resume, @sidechain, @parent)
    ON CONFLICT(key) DO UPDATE SET
      cwd = CASE WHEN excluded.cwd != '' THEN excluded.cwd ELSE sessions.cwd END,
      title = CASE WHEN excluded.title != '' THEN excluded.title ELSE sessions.title END,
      resume = CASE WHEN excluded.resume != '' THEN excluded.resume ELSE sessions.resume END,
      last_activity = max(sessions.last_activity, excluded.last_activity),
      sidechain = max(sessions.sidechain, excluded.sidechain),
      parent = CASE WHEN excluded.parent != '' THEN excluded.parent ELSE sessions.parent END`);
  // What earlier runs learnt, read once (a resumed transcript does not repeat its cwd or parent).
  let stored: Map<string, SessionRow> | undefined;

  const factsOf = (agent: AgentKind, sessionId: string): SessionFacts => {
    const key: SessionKey = `${agent}:${sessionId}`;
    let f = facts.get(key);
    if (!f) {
      stored ??= new Map(selectSessions.all().map((row) => [row.key, row]));
      const row = stored.get(key);
      f = row
        ? { agent, sessionId, cwd: row.cwd, title: row.title, resume: row.resume, lastActivity: row.last_activity, sidechain: row.sidechain === 1, parent: row.parent, dirty: false }
        : { agent, sessionId, cwd: '', title: '', resume: resumeCommand(emptySession(agent, sessionId)), lastActivity: 0, sidechain: false, parent: '', dirty: true };
      facts.set(key, f);
    }
    return f;
  };

  const set = <K extends 'cwd' | 'title' | 'resume' | 'sidechain' | 'parent'>(f: SessionFacts, field: K, value: SessionFacts[K]): void => {
    if (f[field] === value) return;
    f[field] = value;
    f.dirty = true;
  };

  const observe = (s: SessionState): void => {
    const f = factsOf(s.agent, s.sessionId);
    if (s.cwd) set(f, 'cwd', s.cwd);
    if (s.agentName) set(f, 'title', s.agentName);
    if (s.resumeCommand) set(f, 'resume', s.resumeCommand);
    set(f, 'sidechain', s.isSidechain);
    if (s.parentId) set(f, 'parent', `${s.agent}:${s.parentId}`);
    if (s.lastActivityAt > f.lastActivity) {
      f.lastActivity = s.lastActivityAt;
      f.dirty = true;
    }
  };

  const add = (event: SessionEvent): void => {
    switch (event.type) {
      case 'meta': {
        const f = factsOf(event.agent, event.sessionId);
        const p = event.patch;
        if (p.cwd) set(f, 'cwd', p.cwd);
        if (p.agentName) set(f, 'title', p.agentName);
        if (p.resumeCommand) set(f, 'resume', p.resumeCommand);
        if (p.isSidechain !== undefined) set(f, 'sidechain', p.isSidechain);
        if (p.parentId) set(f, 'parent', `${event.agent}:${p.parentId}`);
        return;
      }
      case 'restore':
        // A warm start: the facts as the discovery cache kept them.
        observe(event.state);
        return;
      case 'turn': {
        const f = factsOf(event.agent, event.sessionId);
        // Until the fold's own value is observed: at least the newest message's time.
        if (event.at > f.lastActivity) {
          f.lastActivity = event.at;
          f.dirty = true;
        }
        const text = event.text?.trim() ?? '';
        if (text !== '' && event.counts !== false) rows.push({ key: `${event.agent}:${event.sessionId}`, role: event.role, at: event.at, text });
        return;
      }
      default:
    }
  };

  // NOTE: owners and exclusions are decided at flush, once every meta of the batch (a cwd written
  // after the first message, a parent named late) has been seen.
  const flush = db.transaction((): number => {
    let written = 0;
    for (const row of rows) {
      const own = facts.get(row.key) as SessionFacts;
      const owner = own.sidechain && own.parent ? own.parent : row.key;
      const ownerFacts = owner === row.key ? own : factsOf(own.agent, owner.slice(own.agent.length + 1));
      const cwd = ownerFacts.cwd || own.cwd;
      if (options.excluded(cwd)) continue;
      if (insertSeen.run(hashOf(`${owner}\u0000${row.role}\u0000${row.at}\u0000${row.text}`)).changes === 0) continue;
      insertRow.run(segment(row.text), identifierParts(row.text), owner, own.agent, row.role, row.at, cwd);
      written += 1;
    }
    rows = [];
    for (const [key, f] of facts) {
      if (!f.dirty) continue;
      f.dirty = false;
      // An excluded session leaves no trace, not even its name.
      if (options.excluded(f.cwd)) continue;
      upsertSession.run({ key, agent: f.agent, sessionId: f.sessionId, cwd: f.cwd, title: f.title, lastActivity: f.lastActivity, resume: f.resume, sidechain: f.sidechain ? 1 : 0, parent: f.parent });
    }
    return written;
  });

  return { add, observe, flush: () => flush(), pending: () => rows.length };
};
