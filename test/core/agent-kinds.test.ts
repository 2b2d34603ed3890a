import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { agentKindsFile, agentKindsModule, agentKindsOnDisk } from '../../scripts/lib/agent-kinds.js';
import { AGENT_KINDS } from '../../src/core/agents.js';
import { AGENTS } from '../../src/sources/agents.js';

describe('the agent kinds', () => {
  it('are the agents\' folders (npm run generate writes src/core/agent-kinds.ts again)', async () => {
    const kinds = await agentKindsOnDisk();
    expect(await readFile(agentKindsFile, 'utf8')).toBe(agentKindsModule(kinds));
    expect([...AGENT_KINDS]).toEqual(kinds);
  });

  it('each has its line in the registry, under its own name', () => {
    expect(Object.keys(AGENTS)).toEqual([...AGENT_KINDS]);
    for (const kind of AGENT_KINDS) expect(AGENTS[kind].kind).toBe(kind);
  });

  it('the written module lists the kinds it is given, in that order', () => {
    expect(agentKindsModule(['amp', 'zed'])).toContain("export const AGENT_KINDS = ['amp', 'zed'] as const;");
  });
});
