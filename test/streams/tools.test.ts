import { describe, expect, it } from 'vitest';
import { isSpawningTool, toolActivity } from '../../src/streams/tools.js';

describe('toolActivity', () => {
  it.each([
    ['Read', 'reading'], ['read', 'reading'], ['ReadFile', 'reading'], ['read_file', 'reading'], ['Read_file_v2', 'reading'], ['view_image', 'reading'],
    ['Write', 'writing'], ['edit', 'writing'], ['MultiEdit', 'writing'], ['NotebookEdit', 'writing'], ['StrReplaceFile', 'writing'],
    ['edit_file', 'writing'], ['Edit_file_v2', 'writing'], ['write_to_file', 'writing'], ['apply_patch', 'writing'], ['Create_file', 'writing'],
    ['Bash', 'running'], ['Shell', 'running'], ['exec_command', 'running'], ['Run_terminal_cmd', 'running'], ['TodoWrite', 'running'],
    ['Glob', 'searching'], ['Grep', 'searching'], ['codebase_search', 'searching'], ['find', 'searching'], ['lsp', 'searching'],
    ['WebFetch', 'browsing'], ['Webfetch', 'browsing'], ['web_search', 'browsing'], ['FetchURL', 'browsing'], ['search_query', 'browsing'],
    ['Agent', 'spawning'], ['Task', 'spawning'], ['task', 'spawning'], ['subagent', 'spawning'], ['spawn_agent', 'spawning'],
    // codex multi-agent v2 waits for its agents in wait_agent; kimi agent-core v2's tools.
    ['wait_agent', 'spawning'], ['AgentSwarm', 'spawning'], ['TowerSpawn', 'spawning'], ['ReadMediaFile', 'reading'],
    ['mcp__github__grep', 'searching'], ['mcp__fs__read_file', 'reading'], ['mcp__jira__create_issue', 'running'],
    ['', 'idle'], ['  ', 'idle'],
  ] as const)('%j -> %s', (name, expected) => {
    expect(toolActivity(name)).toBe(expected);
  });

  it('recognises sub-agent tools whatever their casing', () => {
    expect(['Agent', 'TASK', 'Subagent', 'spawn-agent'].every(isSpawningTool)).toBe(true);
    expect(isSpawningTool('Bash')).toBe(false);
  });
});
