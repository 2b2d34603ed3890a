import { execFileSync } from 'node:child_process';
import { readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time of any file below `dir`. */
const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const full = path.join(dir, entry.name);
    return Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }, 0);

/**
 * Tests spawn the real CLI from dist/. `npm test` builds first; when a single test file runs on its
 * own (`npx vitest run test/x`), rebuild here if any source is newer than the build. The build goes
 * to a scratch folder that is swapped in whole, so a CLI another test run is spawning never sees a
 * half-written dist/.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const dist = path.join(root, 'dist');
  let built = 0;
  try {
    built = statSync(path.join(dist, 'cli.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (built >= newest(path.join(root, 'src'))) return;
  const scratch = path.join(root, `.dist-build-${process.pid}`);
  try {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', scratch],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch {
    // tsc still emits on type errors; `npm test` fails on them before vitest runs, so a
    // single-file run goes on with what was emitted.
    process.stderr.write('warning: the build reported type errors (run npm run typecheck)\n');
  }
  const old = path.join(root, `.dist-old-${process.pid}`);
  try {
    renameSync(dist, old);
  } catch {
    // No previous build.
  }
  renameSync(scratch, dist);
  rmSync(old, { recursive: true, force: true });
}
