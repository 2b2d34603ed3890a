import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time of any file below `dir`. */
const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
    const full = path.join(dir, entry.name);
    return Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }, 0);

/**
 * Tests spawn the real CLI from dist/. `npm test` builds first; when a single test file runs on its
 * own (`npx vitest run test/x`), rebuild here if any source is newer than the build.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  let built = 0;
  try {
    built = statSync(path.join(root, 'dist', 'cli.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (built < newest(path.join(root, 'src'))) {
    try {
      execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    } catch {
      // tsc still emits on type errors; `npm test` fails on them before vitest runs, so a
      // single-file run goes on with what was emitted.
      process.stderr.write('warning: the build reported type errors (run npm run typecheck)\n');
    }
  }
}
