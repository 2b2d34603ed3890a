/**
 * `npm run build` (after tsc): bundles the CLI, what `agentwatch` runs, into dist/cli.js and
 * dist/chunks/. Why: Node loads an ES module graph one file at a time, and rxjs, zod and meow are
 * hundreds of files; bundled with our own code they cost about 65 ms less on every start (an
 * empty-HOME `agentwatch sessions` 0.21 -> 0.15 s on the reference machine). Each command and
 * each agent source stays a chunk of its own, loaded when first used, as tsc's output loads them.
 *
 * Inlined: our code and the pure-JS, ESM-or-self-contained packages that dominate start-up
 * (INLINED below). External (required from node_modules at run time as before): the native
 * driver, and packages that load files of their own or are big and used by one mode only.
 * tsc's per-module output stays in dist/ beside it for the tests and benches that import modules.
 *
 *   node scripts/bundle-cli.mjs [outDir]    (default dist/; the tests' build setup passes its scratch folder)
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
const INLINED = new Set(['rxjs', 'zod', 'meow']);
const external = Object.keys(pkg.dependencies).filter((name) => !INLINED.has(name)).flatMap((name) => [name, `${name}/*`]);

/**
 * rxjs from its ES module build: under Node's `node` condition its package resolves to CommonJS,
 * which esbuild wraps whole, and a dynamic `import('rxjs')` of that wrapper came back without
 * its named exports (asyncScheduler undefined). The ES build is also tree-shaken.
 */
const rxjsEsm = {
  name: 'rxjs-esm',
  setup: (bundle) => bundle.onResolve({ filter: /^rxjs$/ }, () => ({ path: path.join(root, 'node_modules', 'rxjs', 'dist', 'esm', 'index.js') })),
};

rmSync(path.join(outDir, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: { cli: path.join(root, 'src', 'cli.ts') },
  outdir: outDir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external,
  plugins: [rxjsEsm],
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
