import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionKey } from '../core/session.js';
import { resumeCommand } from '../streams/views.js';
import { emptySession } from '../streams/session-reducer.js';

/**
 * Turns source events into index rows: each user or assistant text block (tool output and
 * thinking never reach `turn.text`) under its session, and the session's facts (cwd, title,
 * resume command, last activity) for the results. A sub-agent's messages are indexed under its
 * parent session. A block seen before (a re-read, a database replay) is skipped by its hash.
 */
interface SessionFacts {
  agent: AgentKind;
  sessionId: string;
  cwd: string;
  title: string;
  resume: string;
  lastActivity: number;
  /** The session results name: the parent of a sub-agent. */
  owner: SessionKey;
}

export interface Indexer {
  readonly add: (event: SessionEvent) => void;
  /** Writes what was added since the last flush, in one transaction. */
  readonly flush: () => number;
}

export const createIndexer = (db: Database.Database, options: { readonly excluded: (cwd: string) => boolean }): Indexer => {
  const facts = new Map<SessionKey, SessionFacts>();
  let rows: { key: SessionKey; role: string; at: number; text: string }[] = [];
  const touched = new Set<SessionKey>();
  const insertSeen = db.prepare('INSERT OR IGNORE INTO seen (hash) VALUES (?)');
  const insertRow = db.prepare('INSERT INTO messages (text, key, role, at) VALUES (?, ?, ?, ?)');
  const upsertSession = db.prepare(`
    INSERT INTO sessions (key, agent, session_id, cwd, title, last_activity, resume) VALUES (@key, @agent, @sessionId, @cwd, @title, @lastActivity, @resume)
    ON CONFLICT(key) DO UPDATE SET
      cwd = CASE WHEN excluded.cwd != '' THEN excluded.cwd ELSE sessions.cwd END,
      title = CASE WHEN excluded.title != '' THEN excluded.title ELSE sessions.title END,
      resume = CASE WHEN excluded.resume != '' THEN excluded.resume ELSE sessions.resume END,
      last_activity = max(sessions.last_activity, excluded.last_activity)`);

  const factsOf = (agent: AgentKind, sessionId: string): SessionFacts => {
    const key: SessionKey = `${agent}:${sessionId}`;
    let f = facts.get(key);
    if (!f) {
      f = { agent, sessionId, cwd: '', title: '', resume: resumeCommand(emptySession(agent, sessionId)), lastActivity: 0, owner: key };
      facts.set(key, f);
    }
    return f;
  };

  const add = (event: SessionEvent): void => {
    if (event.type === 'meta') {
      const f = factsOf(event.agent, event.sessionId);
      const p = event.patch;
      if (p.cwd) f.cwd = p.cwd;
      if (p.agentName) f.title = p.agentName;
      if (p.resumeCommand) f.resume = p.resumeCommand;
      if (p.isSidechain && p.parentId) f.owner = `${event.agent}:${p.parentId}`;
      else if (p.isSidechain === false) f.owner = `${event.agent}:${event.sessionId}`;
      touched.add(`${event.agent}:${event.sessionId}`);
      return;
    }
    if (event.type !== 'turn') return;
    const text = event.text?.trim() ?? '';
    const f = factsOf(event.agent, event.sessionId);
    f.lastActivity = Math.max(f.lastActivity, event.at);
    touched.add(`${event.agent}:${event.sessionId}`);
    if (text === '' || event.counts === false || options.excluded(f.cwd)) return;
    rows.push({ key: f.owner, role: event.role, at: event.at, text });
  };

  const flush = db.transaction((): number => {
    let written = 0;
    for (const row of rows) {
      const hash = createHash('sha1').update(`${row.key}\u0000${row.role}\u0000${row.at}\u0000${row.text}`).digest('base64url');
      if (insertSeen.run(hash).changes === 0) continue;
      insertRow.run(row.text, row.key, row.role, row.at);
      written += 1;
    }
    rows = [];
    for (const key of touched) {
      const f = facts.get(key);
      // A sub-agent's facts are not a result of their own: its parent is.
      if (!f || f.owner !== key) continue;
      upsertSession.run({ key, agent: f.agent, sessionId: f.sessionId, cwd: f.cwd, title: f.title, lastActivity: f.lastActivity, resume: f.resume });
    }
    touched.clear();
    return written;
  });

  return { add, flush: () => flush() };
};
