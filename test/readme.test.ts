import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_LABEL } from '../src/sources/agents.js';

const read = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const readme = read('README.md');
/** Paragraphs of prose: blocks between blank lines, without code, tables, lists or headings. */
const prose = (text: string): string[] =>
  text
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .filter((block) => !/^\s*([|#>!-]|\d+\.|\* )/.test(block));
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

describe('README.md, for a user', () => {
  it('names every agent agentwatch reads in its opening paragraph', () => {
    const opening = readme.split('\n\n')[1] ?? '';
    const missing = Object.values(AGENT_LABEL).filter((label) => !opening.includes(label));
    expect(missing).toEqual([]);
  });

  it('the quick start says the first --gui asks for a passphrase of at least 12 characters', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    expect(quickStart).toMatch(/first `agentwatch --gui`[\s\S]*asks for a passphrase/);
    expect(quickStart).toContain('at least 12 characters');
  });
});

describe('docs/activity.md', () => {
  it('reads in short sections: no paragraph over 250 words', () => {
    const long = prose(read('docs/activity.md')).filter((block) => words(block) > 250);
    expect(long.map((block) => `${block.slice(0, 60)}… (${words(block)} words)`)).toEqual([]);
  });
});
