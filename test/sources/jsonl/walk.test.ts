import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelsBelow, segmentsBelow } from '../../../src/sources/internal/walk.js';

describe('levelsBelow', () => {
  it.each([
    ['/h/.claude/projects', '/h/.claude/projects', 0],
    ['/h/.claude/projects', '/h/.claude/projects/-p', 1],
    ['/h/.claude/projects', '/h/.claude/projects/-p/s/subagents', 3],
    ['/h/.claude/projects/', '/h/.claude/projects/-p', 1],
    ['/h/.claude/projects', '/h/.claude/projects-other/x', -1],
    ['/h/.claude/projects', '/h/.claude', -1],
    ['/h/.claude/projects', '/h/.claude/projects/../x', -1],
    ['/h/.claude/projects', '/h/.claude/projects/./a', 1],
    ['/h/.claude/projects', '/h/.claude/projects//a/b', 2],
    ['/h/.claude/projects', '/elsewhere', -1],
    ['/h/.claude/projects', '/h/.claude/projects/.a/..b/c.', 3],
    ['/h/.claude/projects', '/h/.claude/projects/a/b/', 2],
    ['/h/.claude/projects', '/h/.claude/projects/a/..', 0],
  ])('%s to %s is %i', (root, dir, levels) => {
    expect(levelsBelow(root, dir)).toBe(levels);
    // The fast path agrees with the path.relative definition.
    const rel = path.relative(root, dir);
    expect(rel === '' ? 0 : rel.startsWith('..') ? -1 : rel.split(path.sep).length).toBe(levels);
  });
});

describe('segmentsBelow', () => {
  it.each([
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions/--w--/a.jsonl', ['--w--', 'a.jsonl']],
    ['/h/.pi/agent/sessions/', '/h/.pi/agent/sessions/--w--/a.jsonl', ['--w--', 'a.jsonl']],
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions/./--w--//a.jsonl', ['--w--', 'a.jsonl']],
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions/x/../--w--/a.jsonl', ['--w--', 'a.jsonl']],
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions/../other/a.jsonl', undefined],
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions-old/a.jsonl', undefined],
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions', undefined],
    ['/h/.pi/agent/sessions', '/elsewhere/a.jsonl', undefined],
    ['/h/.pi/agent/sessions', '/h/.pi/agent/sessions/..a/b.jsonl', ['..a', 'b.jsonl']],
  ])('%s to %s', (root, file, segments) => {
    expect(segmentsBelow(root, file)).toEqual(segments);
  });
});
