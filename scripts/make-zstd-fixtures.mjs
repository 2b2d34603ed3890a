/**
 * Regenerates fixtures/zstd/*.zst: the seeded inputs of test/util/zstd/inputs.ts compressed by the
 * zstd CLI at the settings listed there (FIXTURES). Only the compressed files are committed; the
 * tests regenerate the plain inputs from the same module to compare with.
 *
 *   node scripts/make-zstd-fixtures.mjs        (ZSTD=/path/to/zstd to use another CLI)
 */
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { FIXTURES, fixtureInputs, skippableFrame } = await tsImport('../test/util/zstd/inputs.ts', import.meta.url);
const zstd = process.env.ZSTD ?? '/usr/bin/zstd';
const outDir = path.join(root, 'fixtures', 'zstd');

// The CLI records the content size only when it reads a file (not a pipe), so inputs go to files.
const scratch = mkdtempSync(path.join(tmpdir(), 'zstd-fixtures-'));
try {
  const inputs = fixtureInputs();
  for (const [name, content] of inputs) writeFileSync(path.join(scratch, name), content);
  mkdirSync(outDir, { recursive: true });
  for (const old of readdirSync(outDir)) if (old.endsWith('.zst')) rmSync(path.join(outDir, old));

  let total = 0;
  for (const spec of FIXTURES) {
    const parts = spec.frames.flatMap(({ input, args, piped }, index) => {
      const frame = piped
        ? execFileSync(zstd, [...args, '-q', '-c'], { input: inputs.get(input), maxBuffer: 1 << 30 })
        : execFileSync(zstd, [...args, '-q', '-c', path.join(scratch, input)], { maxBuffer: 1 << 30 });
      return spec.skippable ? [skippableFrame(index), frame] : [frame];
    });
    const file = Buffer.concat(parts);
    writeFileSync(path.join(outDir, spec.file), file);
    total += file.length;
    console.log(`${spec.file.padEnd(36)} ${String(file.length).padStart(8)} bytes`);
  }
  console.log(`${'total'.padEnd(36)} ${String(total).padStart(8)} bytes (${execFileSync(zstd, ['--version']).toString().trim()})`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
