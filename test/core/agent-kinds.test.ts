import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { agentKindsFile, agentKindsModule, agentKindsOnDisk } from '../../scripts/lib/agent-kinds.js';
import { AGENT_KINDS, LIMIT_AGENTS } from '../../src/core/agents.js';
import { AGENTS, agentLimits } from '../../src/sources/agents.js';

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

describe('the limits providers', () => {
  it('are named by the descriptors of exactly the agents `limits` reports, each loading its own', async () => {
    const withLimits = AGENT_KINDS.filter((kind) => 'limits' in AGENTS[kind]);
    expect(withLimits.sort()).toEqual([...LIMIT_AGENTS].sort());
    for (const agent of LIMIT_AGENTS) expect(typeof (await agentLimits[agent]())).toBe('function');
  });
});
