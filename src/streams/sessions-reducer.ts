import type { AgentKind } from '../core/agents.js';
import type { HistoryProgress, SessionsState } from '../core/contracts.js';
import { sessionKey, type SessionEvent, type SessionKey, type SessionState } from '../core/session.js';
import { PersistentMap } from './persistent-map.js';
import { applyToDraft, closeDraft, openDraft, type SessionDraft } from './session-draft.js';
import { emptySession } from './empty-session.js';
import type { SessionScopedEvent } from './reduce-session.js';
import { rollUpSubagents } from './subagent-usage.js';

/** `SessionsState` plus what the fold needs to decide `ready`. */
export interface FoldState extends SessionsState {
  /** Agents whose source has sent `ready`. */
  readonly readyAgents: readonly AgentKind[];
  /** Agents that must be ready before `ready` turns true (the enabled sources). */
  readonly expectedAgents: readonly AgentKind[];
  /** Parent session -> its sub-agent sessions whose usage rolls up into it (subagent-usage.ts). */
  readonly children: ReadonlyMap<SessionKey, ReadonlySet<SessionKey>>;
  /** The latest `progress` of each source that sent one; `history` is their sum. */
  readonly progress: Readonly<Partial<Record<AgentKind, HistoryProgress>>>;
}

export const initialFoldState = (expectedAgents: readonly AgentKind[]): FoldState => ({
  sessions: PersistentMap.empty(),
  diagnostics: {},
  ready: expectedAgents.length === 0,
  readyAgents: [],
  expectedAgents,
  children: PersistentMap.empty(),
  progress: {},
});

const sumOf = (progress: FoldState['progress']): HistoryProgress => {
  let read = 0;
  let total = 0;
  for (const one of Object.values(progress)) {
    read += one.read;
    total += one.total;
  }
  return { read, total };
};

const asPersistent = (map: ReadonlyMap<SessionKey, SessionState>): PersistentMap<SessionKey, SessionState> =>
  map instanceof PersistentMap ? (map as PersistentMap<SessionKey, SessionState>) : PersistentMap.from(map);

/** Result of folding a batch: the new state and the keys of the sessions it touched. */
export interface FoldResult {
  readonly state: FoldState;
  readonly changed: ReadonlySet<SessionKey>;
}

/**
 * Pure fold of a batch of events into the sessions state. The map is persistent (a batch sets only
 * the sessions it touched, in O(log n) each), and so is each session the batch touches (a draft, see session-draft.ts): a
 * cold start replays millions of records into thousands of sessions. The input state and its
 * sessions are never modified. Returns the same state object when nothing changed.
 */
export const reduceSessions = (state: FoldState, events: readonly SessionEvent[]): FoldResult => {
  // The sessions this batch set (undefined: removed), applied to the persistent map once at the
  // end: it shares the rest with the previous state, and thousands of restores of one warm-start
  // batch become one rebuild instead of a path copy each.
  let updates: Map<SessionKey, SessionState | undefined> | undefined;
  const current = (key: SessionKey): SessionState | undefined => (updates?.has(key) ? updates.get(key) : state.sessions.get(key));
  let diagnostics: Record<string, number> | undefined;
  let readyAgents: AgentKind[] | undefined;
  let progress: Partial<Record<AgentKind, HistoryProgress>> | undefined;
  const changed = new Set<SessionKey>();
  // Sessions copied in this batch: only these may be updated in place.
  const drafts = new Map<SessionKey, SessionDraft>();
  // Runs of events of one session (a file chunk's lines) skip the key and map lookups.
  let last: { readonly agent: AgentKind; readonly sessionId: string; readonly draft: SessionDraft } | undefined;
  for (const event of events) {
    if (event.type === 'ready') {
      const current = readyAgents ?? state.readyAgents;
      if (!current.includes(event.agent)) readyAgents = [...current, event.agent];
      continue;
    }
    if (event.type === 'progress') {
      progress ??= { ...state.progress };
      progress[event.agent] = { read: event.read, total: event.total };
      continue;
    }
    if (event.type === 'diagnostic') {
      diagnostics ??= { ...state.diagnostics };
      const key = `${event.agent}:${event.code}`;
      diagnostics[key] = (diagnostics[key] ?? 0) + (event.count ?? 1);
      continue;
    }
    const scoped: SessionScopedEvent = event;
    if (last !== undefined && last.sessionId === scoped.sessionId && last.agent === scoped.agent && scoped.type !== 'removed' && scoped.type !== 'restore' && scoped.type !== 'reset') {
      applyToDraft(last.draft, scoped);
      continue;
    }
    last = undefined;
    const key = sessionKey(scoped);
    updates ??= new Map();
    changed.add(key);
    if (scoped.type === 'removed' || scoped.type === 'restore') {
      drafts.delete(key);
      // The restored object itself: the discovery cache knows it by identity (`isStored`).
      updates.set(key, scoped.type === 'removed' ? undefined : scoped.state);
      continue;
    }
    let draft = drafts.get(key);
    if (scoped.type === 'reset' || !draft) {
      draft = openDraft(scoped.type === 'reset' ? emptySession(scoped.agent, scoped.sessionId) : (current(key) ?? emptySession(scoped.agent, scoped.sessionId)));
      drafts.set(key, draft);
      updates.set(key, draft.state);
    }
    if (scoped.type !== 'reset') applyToDraft(draft, scoped);
    last = { agent: scoped.agent, sessionId: scoped.sessionId, draft };
  }
  for (const draft of drafts.values()) closeDraft(draft);
  let children = state.children;
  let sessions = updates ? asPersistent(state.sessions).withChanges(updates) : undefined;
  if (sessions) {
    const rolled = rollUpSubagents(sessions, state.children, changed);
    sessions = rolled.sessions;
    children = rolled.children;
    for (const parent of rolled.parents) changed.add(parent);
  }
  if (!sessions && !diagnostics && !readyAgents && !progress) return { state, changed };
  const nextReady = readyAgents ?? state.readyAgents;
  const nextProgress = progress ?? state.progress;
  const history = progress ? sumOf(progress) : state.history;
  return {
    state: {
      sessions: sessions ?? state.sessions,
      diagnostics: diagnostics ?? state.diagnostics,
      readyAgents: nextReady,
      expectedAgents: state.expectedAgents,
      children,
      progress: nextProgress,
      ready: state.ready || state.expectedAgents.every((agent) => nextReady.includes(agent)),
      ...(history ? { history } : {}),
    },
    changed,
  };
};
