import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_LABEL } from '../src/sources/agents.js';

/** What README.md says agentwatch is: its first paragraph, before the pictures. */
const opening = readFileSync(new URL('../README.md', import.meta.url), 'utf8').split('\n\n')[1] ?? '';

describe('README.md', () => {
  it('names every agent agentwatch reads in its opening paragraph', () => {
    const missing = Object.values(AGENT_LABEL).filter((label) => !opening.includes(label));
    expect(missing).toEqual([]);
  });
});
