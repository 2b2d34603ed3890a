import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BehaviorSubject } from 'rxjs';
import { toEffective } from '../../../src/config/effective.js';
import { configSchema } from '../../../src/config/schema.js';
import { loadSessionNames, setSessionName } from '../../../src/config/session-names.js';
import type { Env } from '../../../src/config/paths.js';
import type { SessionDetail } from '../../../src/core/session.js';
import { createSessionStore, type SessionStore, type SessionViews } from '../../../src/sinks/http/store.js';

/** A complete detail object; tests override what they look at. */
export const detail = (overrides: Partial<SessionDetail> & Pick<SessionDetail, 'session_id'>): SessionDetail => ({
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
  cost_usd: 0.12,
  cost_source: 'price-table',
  last_activity: '2026-11-21T10:00:00.000Z',
  total_messages: 4,
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
  display_name: overrides.custom_name || overrides.agent_name || (overrides.short_name ?? 'app'),
  ...overrides,
});

export const viewsOf = (visible: readonly SessionDetail[], hidden: readonly SessionDetail[] = [], windowMinutes = 30): SessionViews => ({
  visible,
  lookup: (id) => [...visible, ...hidden].find((s) => s.session_id === id),
  windowMinutes,
});

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

/** The real store over a subject of views, saving names into the temp config dir. */
export const makeStore = async (env: Env, initial: SessionViews): Promise<{ store: SessionStore; views$: BehaviorSubject<SessionViews> }> => {
  const views$ = new BehaviorSubject(initial);
  const { names } = await loadSessionNames(env);
  const store = createSessionStore({
    views$,
    names,
    saveName: async (id, name) => (await setSessionName(env, id, name)).names,
  });
  return { store, views$ };
};

export const defaultConfig = (overrides: Record<string, unknown> = {}) =>
  toEffective(configSchema.parse({ api_salt: 'salt-of-test', api_passphrase: 'correct horse battery', ...overrides }), {}).config;
