import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** Newest modification time of any file below `dir` (0 when it does not exist). */
const newest = (dir: string): number => {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  return entries.reduce((max, entry) => {
    const full = path.join(dir, entry.name);
    return Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }, 0);
};

const mtime = (file: string): number => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/**
 * Tests spawn the real CLI from dist/ and load the dashboard from dist/gui/. `npm test` builds
 * first; when a single test file runs on its own (`npx vitest run test/x`), rebuild here what is
 * older than its sources: the server (tsc, then the CLI bundle) when src/ changed, the
 * dashboard (vite) when web/ or the src/ modules it imports changed; an up-to-date dashboard is
 * copied over, not rebuilt. The build goes to a scratch folder that is swapped in whole, so a
 * CLI another test run is spawning never sees a half-written dist/.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const dist = path.join(root, 'dist');
  const serverStale = mtime(path.join(dist, 'cli.js')) < newest(path.join(root, 'src'));
  const guiSources = Math.max(
    newest(path.join(root, 'web', 'src')),
    mtime(path.join(root, 'web', 'index.html')),
    mtime(path.join(root, 'web', 'vite.config.ts')),
    newest(path.join(root, 'src', 'core')),
    newest(path.join(root, 'src', 'limits')),
    // The order rule the cards sort with.
    mtime(path.join(root, 'src', 'streams', 'order.ts')),
    // The agent registry: the dashboard's agent names and colours are built from it.
    newest(path.join(root, 'src', 'sources')),
  );
  const guiStale = mtime(path.join(dist, 'gui', 'index.html')) < guiSources;
  if (!serverStale && !guiStale) return;

  const scratch = path.join(root, `.dist-build-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  if (serverStale) {
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
    // What `agentwatch` runs: the bundle over tsc's cli.js, as `npm run build` lays it out.
    execFileSync(process.execPath, [path.join(root, 'scripts', 'bundle-cli.mjs'), scratch], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  } else {
    cpSync(dist, scratch, { recursive: true, filter: (source) => source !== path.join(dist, 'gui') });
  }
  if (guiStale) {
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'web/vite.config.ts', '--outDir', path.join(scratch, 'gui'), '--emptyOutDir', '--logLevel', 'error'],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } else {
    cpSync(path.join(dist, 'gui'), path.join(scratch, 'gui'), { recursive: true });
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
