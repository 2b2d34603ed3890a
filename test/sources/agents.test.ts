import path from 'node:path';
import { EMPTY } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../src/core/agents.js';
import { agentTables, type AgentRegistry } from '../../src/sources/agent-tables.js';
import { AGENTS } from '../../src/sources/agents.js';
import { claudeResumeCommand } from '../../src/sources/claude/descriptor.js';
import type { AgentDescriptor, Where } from '../../src/sources/descriptor.js';
import { agentCss } from '../../web/src/lib/agent-css.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let t: TempHome;
beforeEach(async () => {
  t = await makeTempHome();
});
afterEach(async () => t.cleanup());

const whereIn = (env: Record<string, string>, platform: NodeJS.Platform = 'linux'): Where => ({ config: { claude_dirs: [] }, env, platform });

/** A tenth agent, as its folder would declare it. */
const zed: AgentDescriptor<'zed'> = {
  kind: 'zed',
  label: 'Zed',
  glyph: 'Z',
  colour: { tui: { dark: 39, light: 25 }, web: { dark: '#6aa8e6', light: '#2d6cb0' } },
  storage: 'files',
  env: ['ZED_HOME'],
  locations: ({ env }) => [{ path: path.join(env.ZED_HOME ?? '/nowhere', 'threads') }],
  stampRoots: ({ env }) => [path.join(env.ZED_HOME ?? '/nowhere', 'threads'), path.join(env.ZED_HOME ?? '/nowhere', 'index.json')],
  resume: ({ sessionId }) => `zed --resume ${sessionId}`,
  checkedVersions: [],
  demo: [{ agent: 'zed', sessionId: 'z-demo', meta: { cwd: '/home/demo/src/zed-app' }, tools: ['read', 'edit', 'terminal'], pauseMs: 30_000, offsetMs: 5_000, conversation: [{ prompt: 'Hi', answer: 'Hello' }] }],
  load: async () => () => EMPTY,
};

describe('the agent registry', () => {
  it('a new agent is its descriptor plus one registry line: every derived table includes it', async () => {
    const registry: AgentRegistry<keyof typeof AGENTS | 'zed'> = { ...AGENTS, zed };
    const tables = agentTables(registry);
    const where = whereIn({ ...t.env, ZED_HOME: '/opt/zed' });
    expect(tables.kinds).toEqual([...AGENT_KINDS, 'zed']);
    expect(tables.labels.zed).toBe('Zed');
    expect(tables.glyphs.zed).toBe('Z');
    expect(tables.colours.zed).toEqual(zed.colour);
    expect(tables.looks.zed).toEqual({ label: 'Zed', glyph: 'Z' });
    expect(tables.helpList.split(' ')).toContain('zed');
    expect(tables.locations('zed', where)).toEqual(['/opt/zed/threads']);
    expect(tables.stampRoots('zed', where)).toEqual(['/opt/zed/threads', '/opt/zed/index.json']);
    expect(tables.resume('zed', { sessionId: 'z1', isSidechain: false })).toBe('zed --resume z1');
    expect(tables.databaseAgents).not.toContain('zed');
    expect(await tables.searchDatabases('zed', where.env, 'linux')).toEqual([]);
    const openReader = (): never => {
      throw new Error('not opened here');
    };
    const asDatabase = agentTables({ ...registry, zed: { ...zed, storage: 'sqlite', searchDatabases: async () => (env) => [{ dbPath: path.join(env.ZED_HOME ?? '', 'zed.db'), openReader }] } });
    expect(asDatabase.databaseAgents).toContain('zed');
    expect(await asDatabase.searchDatabases('zed', where.env, 'linux')).toEqual([{ dbPath: '/opt/zed/zed.db', openReader }]);
    expect(tables.hiddenUntilPrompted.has('zed')).toBe(false);
    expect(agentTables({ ...registry, zed: { ...zed, hiddenUntilPrompted: true } }).hiddenUntilPrompted.has('zed')).toBe(true);
    expect(tables.demoSessions.filter((session) => session.agent === 'zed')).toEqual(zed.demo);
    expect(agentCss(tables.colours)).toContain('--agent-zed: #6aa8e6;');
    expect(agentCss(tables.colours)).toContain('--agent-zed: #2d6cb0;');
    expect(await tables.loaders.zed()).toBeTypeOf('function');
  });

  it('lists every agent kind under its own kind, in the kinds order', () => {
    expect(Object.keys(AGENTS)).toEqual([...AGENT_KINDS]);
    for (const kind of AGENT_KINDS) expect(AGENTS[kind].kind).toBe(kind);
  });

  it('gives every agent its own label and a one-cell glyph of its own, and a colour per palette', () => {
    const looks = AGENT_KINDS.map((kind) => AGENTS[kind]);
    expect(new Set(looks.map((d) => d.label)).size).toBe(AGENT_KINDS.length);
    expect(new Set(looks.map((d) => d.glyph)).size).toBe(AGENT_KINDS.length);
    for (const d of looks) {
      expect([...d.glyph], d.kind).toHaveLength(1);
      // D is Claude Desktop's glyph in the TUI list.
      expect(d.glyph, d.kind).not.toBe('D');
      expect([d.colour.tui.dark, d.colour.tui.light].every((index) => Number.isInteger(index) && index >= 0 && index <= 255), d.kind).toBe(true);
      expect([d.colour.web.dark, d.colour.web.light].every((css) => /^#[0-9a-f]{6}$/.test(css)), d.kind).toBe(true);
      expect(d.checkedVersions.length, d.kind).toBeGreaterThan(0);
    }
  });

  it('lists a session of grok or kimi only once it has a prompt: they create one before', () => {
    expect(AGENT_KINDS.filter((kind) => agentTables<keyof typeof AGENTS>(AGENTS).hiddenUntilPrompted.has(kind))).toEqual(['grok', 'kimi']);
  });

  it('takes the SQLite agents as those whose locations are database files', () => {
    expect(AGENT_KINDS.filter((kind) => AGENTS[kind].storage === 'sqlite')).toEqual(['crush', 'cursor', 'goose', 'kilo', 'opencode']);
    for (const kind of ['crush', 'cursor', 'goose', 'kilo', 'opencode'] as const) {
      const d: AgentDescriptor<typeof kind> = AGENTS[kind];
      expect(d.stampRoots(whereIn(t.env))).toEqual([]);
    }
  });

  it('says for each SQLite agent, and only for those, which of the databases it reads search catches up', async () => {
    const tables = agentTables<keyof typeof AGENTS>(AGENTS);
    for (const kind of AGENT_KINDS) {
      expect(AGENTS[kind].searchDatabases !== undefined, kind).toBe(AGENTS[kind].storage === 'sqlite');
      const where = whereIn(t.env);
      const read = AGENTS[kind].locations(where).map((location) => location.path);
      for (const db of await tables.searchDatabases(kind, t.env, 'linux')) {
        expect(read, kind).toContain(db.dbPath);
        expect(db.openReader, kind).toBeTypeOf('function');
      }
    }
    expect((await tables.searchDatabases('opencode', t.env, 'linux')).length).toBeGreaterThan(0);
    expect(await tables.searchDatabases('claude', t.env, 'linux')).toEqual([]);
  });

  it('honours every environment variable a descriptor names: each moves a place the agent is read from', () => {
    const elsewhere = path.join(t.root, 'elsewhere');
    for (const kind of AGENT_KINDS) {
      const d = AGENTS[kind];
      for (const name of d.env) {
        const moved = (['linux', 'win32'] as const).some((platform) => {
          const where = whereIn({ ...t.env, [name]: name === 'OPENCODE_DB' ? path.join(elsewhere, 'chosen.db') : elsewhere }, platform);
          const places = [...d.locations(where).map((location) => location.path), ...d.stampRoots(where)];
          return places.some((place) => place.startsWith(elsewhere));
        });
        expect(moved, `${kind}: ${name}`).toBe(true);
      }
    }
  });

  it('names a claude_dirs entry as the config entry its projects/ folder comes from', () => {
    const entry = path.join(t.root, 'work-claude');
    const [location] = AGENTS.claude.locations({ config: { claude_dirs: [entry] }, env: t.env, platform: 'linux' });
    expect(location).toEqual({ path: path.join(entry, 'projects'), configEntry: { key: 'claude_dirs', entry, holds: 'projects/' } });
    expect(AGENTS.claude.locations(whereIn(t.env))).toEqual([{ path: path.join(t.home, '.claude', 'projects') }]);
  });

  it('builds the resume commands the sources record', () => {
    const main = { sessionId: 's1', isSidechain: false };
    expect(AGENTS.claude.resume(main)).toBe(claudeResumeCommand('s1'));
    expect(AGENT_KINDS.map((kind) => AGENTS[kind].resume(main))).toEqual([
      'amp threads continue s1',
      'claude --resume s1',
      'codex resume s1',
      'copilot --resume s1',
      'crush --session s1',
      'cursor-agent --resume="s1"',
      'droid --resume s1',
      'gemini --resume s1',
      'goose session --resume --session-id s1',
      'grok --resume s1',
      'kilo --session=s1',
      'kimi --resume s1',
      'opencode -s s1',
      'pi --session s1',
      'qwen --resume s1',
    ]);
    expect(AGENTS.grok.resume({ sessionId: 'g1', isSidechain: true })).toBe('');
    expect(AGENTS.gemini.resume({ sessionId: 'g1', isSidechain: true })).toBe('');
    expect(AGENTS.droid.resume({ sessionId: 'd1', isSidechain: true })).toBe('');
  });
});
