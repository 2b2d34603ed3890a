import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { treeStamp } from '../../src/search/tree-stamp.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tree = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'agentwatch-stamp-'));
  made.push(root);
  const projects = path.join(root, 'projects', '-home-dev-app');
  mkdirSync(projects, { recursive: true });
  const file = path.join(projects, 'a.jsonl');
  writeFileSync(file, '{"type":"user"}\n');
  return { root, projects, file, roots: [path.join(root, 'projects'), path.join(root, 'absent')] };
};

describe('treeStamp: the file agents\' directories as one hash', () => {
  it('is equal while nothing changes, and differs after an append, a new file, a rename and a delete', () => {
    const { projects, file, roots } = tree();
    const first = treeStamp(roots);
    expect(treeStamp(roots)).toBe(first);
    appendFileSync(file, '{"type":"assistant"}\n');
    const appended = treeStamp(roots);
    expect(appended).not.toBe(first);
    writeFileSync(path.join(projects, 'b.jsonl'), '');
    const created = treeStamp(roots);
    expect(created).not.toBe(appended);
    renameSync(path.join(projects, 'b.jsonl'), path.join(projects, 'c.jsonl'));
    const renamed = treeStamp(roots);
    expect(renamed).not.toBe(created);
    rmSync(path.join(projects, 'c.jsonl'));
    expect(treeStamp(roots)).not.toBe(renamed);
  });

  it('an absent root that appears changes the stamp', () => {
    const { root, roots } = tree();
    const before = treeStamp(roots);
    mkdirSync(path.join(root, 'absent'));
    expect(treeStamp(roots)).not.toBe(before);
  });

  it('ends on a link cycle', () => {
    const { projects, roots } = tree();
    symlinkSync('..', path.join(projects, 'loop'));
    expect(treeStamp(roots)).toMatch(/^[0-9a-f]{40}$/);
  });
});
