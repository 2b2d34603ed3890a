import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BehaviorSubject, map, tap, type Observable } from 'rxjs';
import { toEffective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import { loadSessionNames, setSessionName } from '../../../src/config/session-names.js';
import type { Env } from '../../../src/config/paths.js';
import type { Activity } from '../../../src/core/activity.js';
import { AGENT_KINDS } from '../../../src/core/agents.js';
import type { SessionsState } from '../../../src/core/contracts.js';
import { sessionKey, type SessionDetail, type SessionKey, type SessionState } from '../../../src/core/session.js';
import { createSessionStore, type ListingFeed, type SessionStore } from '../../../src/sinks/http/store.js';
import { emptySession } from '../../../src/streams/empty-session.js';
import { ALL_SESSIONS } from '../../../src/streams/frames.js';
import { createListing, type ListingFrame } from '../../../src/streams/listing.js';
import { summaryWith } from '../../../src/streams/views.js';
import type { VisibilityOptions } from '../../../src/streams/visibility.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';

const BASE_AT = Date.parse('2026-11-21T10:00:00.000Z');

/** The folded state a detail describes: the fields a test sets, the rest empty. */
export const stateOf = (d: SessionDetail): SessionState => ({
  ...emptySession(d.agent, d.session_id),
  cwd: d.cwd,
  model: d.model,
  gitBranch: d.git_branch,
  version: d.version,
  agentName: d.agent_name,
  source: d.source,
  resumeCommand: d.resume_command,
  createdAt: Date.parse(d.last_activity),
  lastActivityAt: Date.parse(d.last_activity),
  userMessages: d.user_messages,
  assistantMessages: d.assistant_messages,
  tokens: { input: d.input_tokens, output: d.output_tokens, cacheCreation: d.cache_creation_tokens, cacheRead: d.cache_read_tokens },
  recentTools: d.recent_tools.map((tool) => ({ name: tool.name, at: Date.parse(tool.timestamp), done: true })),
  recentMessages: d.recent_messages.map((m) => ({ role: m.role, text: m.text, at: Date.parse(m.timestamp) })),
  lastFileWrite: d.last_file_write,
  lastFileWriteAt: Math.max(0, Date.parse(d.last_file_write_at) || 0),
});

/**
 * A complete detail object; tests override what they look at. The summary fields (cost, names,
 * `is_active`, the message count) are what the views make of the state the detail describes, so
 * a store fed that state serves exactly this detail's summary.
 */
export const detail = (overrides: Partial<SessionDetail> & Pick<SessionDetail, 'session_id'>): SessionDetail => {
  const base: SessionDetail = {
    agent: 'claude',
    cwd: '/work/app',
    short_name: 'app',
    agent_name: '',
    custom_name: '',
    source: 'cli',
    activity: 'idle',
    is_active: false,
    model: 'claude-sonnet-4',
    git_branch: 'main',
    cost_usd: 0,
    cost_source: 'price-table',
    last_activity: '2026-11-21T10:00:00.000Z',
    total_messages: 4,
    started_at: '0001-01-01T00:00:00Z',
    order_group: 'idle',
    waiting_since: '',
    version: '2.0.1',
    is_worktree: false,
    main_repo: '',
    input_tokens: 10,
    output_tokens: 20,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
    user_messages: 2,
    assistant_messages: 2,
    current_tool: '',
    last_file_write: '',
    last_file_write_at: '0001-01-01T00:00:00Z',
    recent_tools: [],
    recent_messages: [],
    resume_command: 'claude --resume x',
    subagents: { sessions: 0, input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, cost_usd: 0 },
    display_name: '',
    ...overrides,
  };
  const names = base.custom_name === '' ? {} : { [base.session_id]: base.custom_name };
  return { ...base, ...summaryWith(stateOf(base), { customNames: names }, base.activity) };
};

/** What the monitor lists at one moment, as a test describes it. */
export interface Scene {
  /** Listed sessions (newest first, equal times by id, as the listing orders them). */
  readonly visible: readonly SessionDetail[];
  /** Known sessions outside the window: not listed, found by id. */
  readonly hidden?: readonly SessionDetail[];
  readonly windowMinutes: number;
  /** Defaults to true. */
  readonly ready?: boolean;
  readonly diagnostics?: number;
}

export const viewsOf = (visible: readonly SessionDetail[], hidden: readonly SessionDetail[] = [], windowMinutes = 30): Scene => ({ visible, hidden, windowMinutes });

/** The pipeline frame that holds `scene`: its states, the activities the details name, one moment after the newest. */
export const frameOf = (scene: Scene): ListingFrame => {
  const now = Math.max(BASE_AT, ...scene.visible.map((d) => Date.parse(d.last_activity))) + 1_000;
  const sessions = new Map<SessionKey, SessionState>();
  const activities = new Map<SessionKey, Activity>();
  for (const d of scene.visible) {
    sessions.set(sessionKey(stateOf(d)), stateOf(d));
    activities.set(`${d.agent}:${d.session_id}`, d.activity);
  }
  for (const d of scene.hidden ?? []) {
    const state = stateOf(d);
    const old = { ...state, lastActivityAt: Math.min(state.lastActivityAt, now - (scene.windowMinutes + 1) * 60_000) };
    sessions.set(sessionKey(old), old);
    activities.set(sessionKey(old), d.activity);
  }
  const state: SessionsState = { sessions, diagnostics: scene.diagnostics ? { 'claude:E_READ': scene.diagnostics } : {}, ready: scene.ready ?? true };
  return { state, now, activities, touched: ALL_SESSIONS };
};

/** A real listing fed the scenes of `scene$`, as the pipeline feeds its own. */
export const sceneFeed = (scene$: Observable<Scene>): ListingFeed => {
  let windowMinutes = 30;
  const visibility = (): VisibilityOptions => ({ windowMinutes, excludeCwdSubstrings: [], agents: new Set(AGENT_KINDS) });
  const listing = createListing({ visibility });
  const frame$ = scene$.pipe(
    map((scene) => {
      windowMinutes = scene.windowMinutes;
      return frameOf(scene);
    }),
    tap((frame) => listing.push(frame)),
  );
  return {
    frame$,
    listing,
    get visibility() {
      return visibility();
    },
  };
};

/** A temp HOME + XDG dirs; nothing touches the real home. */
export const makeTempEnv = async (): Promise<{ env: Env; root: string; cleanup: () => Promise<void> }> => {
  const root = await mkdtemp(path.join(tmpdir(), 'agentwatch-api-'));
  const env: Env = {
    HOME: path.join(root, 'home'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_CACHE_HOME: path.join(root, 'cache'),
    XDG_DATA_HOME: path.join(root, 'data'),
  };
  return { env, root, cleanup: () => rm(root, { recursive: true, force: true }) };
};

/** The real store over a subject of scenes, saving names into the temp config dir. */
export const makeStore = async (env: Env, initial: Scene): Promise<{ store: SessionStore; views$: BehaviorSubject<Scene> }> => {
  const views$ = new BehaviorSubject(initial);
  const { names } = await loadSessionNames(env);
  const store = createSessionStore({
    feed: sceneFeed(views$),
    worktree: () => NOT_A_WORKTREE,
    names,
    saveName: async (id, name) => (await setSessionName(env, id, name)).names,
  });
  return { store, views$ };
};

export const defaultConfig = (overrides: Record<string, unknown> = {}) =>
  toEffective(configSchema.parse({ api_salt: 'salt-of-test', api_passphrase: 'correct horse battery', ...overrides }), {}).config;
