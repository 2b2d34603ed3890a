import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const module = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/util/long-run-heap.js')).href;

/** Runs `body` in a fresh node (V8 flags must not leak into the test runner), returns its JSON output. */
const inNode = (body: string): Record<string, number> =>
  JSON.parse(
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `import { collectGarbage, compactHeap, keepYoungGenerationSmall } from ${JSON.stringify(module)}; import v8 from 'node:v8';\nconst space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name).space_size / 2 ** 20;\n${body}`],
      { encoding: 'utf8' },
    ),
  ) as Record<string, number>;

// Allocation with many survivors: what grows V8's young generation (and what a first discovery does).
const CHURN = `globalThis.kept = []; for (let i = 0; i < 2e6; i += 1) { const o = { i, s: 'x' + i }; if (i % 3 === 0) kept.push(o); }`;

describe('long-run heap settings (dist build)', () => {
  it('keepYoungGenerationSmall keeps the young generation at 2 MiB through a burst that grows it to 32 MiB by default', () => {
    const grown = inNode(`${CHURN}\nprocess.stdout.write(JSON.stringify({ newMiB: space('new_space') }));`);
    const kept = inNode(`keepYoungGenerationSmall();\n${CHURN}\nprocess.stdout.write(JSON.stringify({ newMiB: space('new_space') }));`);
    expect(grown.newMiB).toBeGreaterThanOrEqual(16);
    expect(kept.newMiB).toBeLessThanOrEqual(2);
  });

  it('compactHeap gives back the old generation pages that garbage left half empty', () => {
    // Keep one object in 20 of a large old generation: a plain full collection leaves most pages in place.
    const out = inNode(
      `${CHURN}\nfor (let i = 0; i < kept.length; i += 1) if (i % 20 !== 0) kept[i] = undefined;\n` +
        `const before = space('old_space'); compactHeap(); const after = space('old_space');\n` +
        `process.stdout.write(JSON.stringify({ before, after, gcHidden: typeof globalThis.gc === 'undefined' ? 1 : 0 }));`,
    );
    expect(out.after).toBeLessThan((out.before ?? 0) / 2);
    expect(out.gcHidden).toBe(1);
  });

  it('collectGarbage frees what died in the old generation, and leaves gc hidden', () => {
    // Promote a large object graph, then drop it: until a full collection it stays counted in the heap.
    const out = inNode(
      `${CHURN}\nconst used = () => process.memoryUsage().heapUsed / 2 ** 20;\nglobalThis.kept = undefined;\n` +
        `const before = used(); collectGarbage(); const after = used();\n` +
        `process.stdout.write(JSON.stringify({ before, after, gcHidden: typeof globalThis.gc === 'undefined' ? 1 : 0 }));`,
    );
    expect(out.after).toBeLessThan((out.before ?? 0) / 2);
    expect(out.gcHidden).toBe(1);
  });
});
