import type { Activity } from '../core/activity.js';

/**
 * Tool name -> displayed activity. Names are matched case-insensitively with `-`, `_`, spaces and
 * dots removed, so `read_file`, `ReadFile` and `Read_file_v2` agree and no casing variant falls
 * through to "running" by accident (a case-sensitive table reads `Task` or `Webfetch` as running).
 * Unknown non-empty names are "running"; empty is "idle".
 */
const TABLE: Readonly<Record<Exclude<Activity, 'idle' | 'waiting' | 'thinking' | 'compacting' | 'running'>, readonly string[]>> = {
  reading: ['read', 'readfile', 'readfilev2', 'viewimage', 'view', 'cat', 'readmanyfiles', 'notebookread', 'readmediafile'],
  writing: [
    'write', 'edit', 'multiedit', 'notebookedit', 'writefile', 'strreplacefile', 'editfile', 'editfilev2',
    'writetofile', 'writetofilev2', 'applypatch', 'createfile', 'strreplace', 'strreplacebasededittool',
    'patch', 'replace', 'searchreplace', 'deletefile', 'create',
  ],
  searching: [
    'glob', 'grep', 'codebasesearch', 'globfilesearch', 'grepsearch', 'find', 'lsp', 'filesearch', 'search',
    'ls', 'listdir', 'listfiles', 'ripgrep', 'rg', 'finder', 'listdirectory',
  ],
  browsing: ['webfetch', 'websearch', 'fetchurl', 'searchquery', 'imagequery', 'open', 'click', 'fetch', 'browse', 'browser', 'readwebpage', 'googlewebsearch'],
  // `wait_agent`: codex's multi-agent v2 spawns without blocking and waits for its agents here;
  // `AgentSwarm` and `TowerSpawn`: kimi's agent-core v2.
  spawning: ['agent', 'task', 'subagent', 'spawnagent', 'spawn', 'dispatchagent', 'delegate', 'runsubagent', 'waitagent', 'agentswarm', 'towerspawn'],
};

const canonical = (name: string): string => name.toLowerCase().replace(/[\s._-]+/g, '');

const LOOKUP: ReadonlyMap<string, Activity> = new Map(
  Object.entries(TABLE).flatMap(([activity, names]) => names.map((name) => [name, activity as Activity] as const)),
);

/** MCP tools are named `mcp__<server>__<tool>`: classify by the tool part, else "running". */
const stripMcp = (name: string): string => {
  const match = /^mcp__.+?__(.+)$/.exec(name);
  return match?.[1] ?? name;
};

/** The activity a tool shows while it runs. */
export const toolActivity = (name: string): Activity => {
  const trimmed = name.trim();
  if (trimmed === '') return 'idle';
  return LOOKUP.get(canonical(stripMcp(trimmed))) ?? 'running';
};

/** Sub-agent tools keep a session "spawning" for up to 20 minutes instead of 30 s. */
export const isSpawningTool = (name: string): boolean => toolActivity(name) === 'spawning';
