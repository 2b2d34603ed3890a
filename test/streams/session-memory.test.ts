import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createInterner, INTERN_MAX_LENGTH } from '../../src/core/intern.js';
import { detach } from '../../src/core/detach.js';
import { flatJson } from '../../src/core/flat-json.js';

const distModule = (file: string): string => pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist', file)).href;

/**
 * Heap growth (MiB, after full collections) in a fresh node of `body`, which fills `kept`; `imports`
 * are import statements it needs.
 */
const heapGrowth = (imports: string, body: string): number =>
  Number(
    execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--input-type=module',
        '-e',
        `${imports}
         gc(); gc();
         const before = process.memoryUsage().heapUsed;
         const kept = [];
         ${body}
         gc(); gc();
         process.stdout.write(String((process.memoryUsage().heapUsed - before) / 2 ** 20 + kept.length * 0));`,
      ],
      { encoding: 'utf8' },
    ),
  );

/** Heap growth of folding `count` sessions, each built by `events(i)`. */
const heapOfSessions = (count: number, events: string): number =>
  heapGrowth(
    `import { reduceSession } from ${JSON.stringify(distModule('streams/reduce-session.js'))};
     const events = ${events};`,
    `for (let i = 0; i < ${count}; i += 1) {
       let s;
       for (const e of events(i)) s = reduceSession(s, { agent: 'claude', sessionId: 's' + i, ...e });
       kept.push(s);
     }`,
  );

describe('per-session memory of the fold', () => {
  it('holds one copy of a cwd, model, branch or version that many sessions share', () => {
    // Each session parses its own copy of the same values (JSON.parse, as the sources do).
    const shared = heapOfSessions(
      20_000,
      `(i) => [{ type: 'meta', patch: JSON.parse(JSON.stringify({ cwd: '/home/someone/work/' + 'a-rather-long-project-directory-name/'.repeat(4), model: 'claude-sonnet-4-5-20250929', gitBranch: 'feature/some-long-branch-name', version: '2.1.278' })) }]`,
    );
    const none = heapOfSessions(20_000, `(i) => [{ type: 'meta', patch: {} }]`);
    // 20,000 copies of these four strings would be about 6 MiB.
    expect(shared - none).toBeLessThan(1);
  });

  it('keeps only the cut part of a long message, not the whole message', () => {
    const long = heapOfSessions(2_000, `(i) => [{ type: 'turn', at: 1, role: 'user', text: 'word '.repeat(20_000) + i }]`);
    // 2,000 messages of 100 KB would be 190 MiB; 300 characters each are under 1 MiB.
    expect(long).toBeLessThan(5);
  });
});

describe('intern', () => {
  it('returns the value it was given, for any value', () => {
    const intern = createInterner(2);
    for (const value of ['', 'a', 'b', 'c', 'a', 'x'.repeat(INTERN_MAX_LENGTH + 1)]) expect(intern(value)).toBe(value);
  });
});

describe('detach', () => {
  it('returns the same text', () => {
    const text = 'message text '.repeat(30);
    expect(detach(text.slice(0, 300))).toBe(text.slice(0, 300));
    expect(detach('short')).toBe('short');
  });
});

describe('flatJson', () => {
  it('holds a summary’s JSON in less memory than JSON.stringify’s rope', () => {
    const heapOf = (make: string): number =>
      heapGrowth(
        `import { flatJson } from ${JSON.stringify(distModule('core/flat-json.js'))};
         const make = ${make};`,
        `for (let i = 0; i < 50000; i += 1) kept.push(make({ session_id: 'c0ffee00-0000-4000-8000-' + String(i).padStart(12, '0'), agent: 'claude', cwd: '/home/someone/work/project-' + (i % 100), short_name: 'project', activity: 'idle', model: 'claude-sonnet-4-5-20250929', cost_usd: i / 7, last_activity: '2026-11-25T10:00:00.000Z', total_messages: i % 50 }));`,
      );
    const rope = heapOf('(value) => JSON.stringify(value)');
    const flat = heapOf('flatJson');
    expect(flat).toBeLessThan(rope * 0.85);
    expect(flatJson({ a: 1, b: 'x' })).toBe('{"a":1,"b":"x"}');
  });
});
