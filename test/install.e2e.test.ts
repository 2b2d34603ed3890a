import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * `npm ci` alone puts no `agentwatch` on PATH: a packed tarball and the clone itself, installed
 * globally into a temp prefix, give a working command. npm installs with --ignore-scripts: the
 * clone's dist/ is already built by the test setup, and better-sqlite3's native build (prebuilt
 * download or node-gyp) is npm's own business; the commands run here do not load it.
 * --prefer-offline reads the packages `npm ci` cached.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
let home: TempHome;
let npmEnv: Record<string, string>;
let cache: string;
let tarball: string;

const npm = (args: readonly string[], cwd = home.root) =>
  run('npm', [...args, '--cache', cache, '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd, env: npmEnv, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 });

/** The installed command, run with a temp HOME like a user's first run. */
const agentwatch = (prefix: string, args: readonly string[]) =>
  run(path.join(prefix, 'bin', 'agentwatch'), [...args], { env: { ...home.env, PATH: `${path.join(prefix, 'bin')}:${process.env.PATH ?? ''}` }, timeout: 20_000 });

beforeAll(async () => {
  home = await makeTempHome('agentwatch-install-');
  // npm's own cache (filled by `npm ci`), so the install works without the network.
  cache = (await run('npm', ['config', 'get', 'cache'], { cwd: ROOT })).stdout.trim();
  npmEnv = { ...home.env, PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const packed = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', home.root], ROOT);
  const [info] = JSON.parse(packed.stdout) as { filename: string }[];
  tarball = path.join(home.root, info?.filename ?? 'missing.tgz');
}, 180_000);

afterAll(async () => {
  await rm(home.root, { recursive: true, force: true });
});

describe('install', () => {
  it('the package ships the built program and its README, nothing else (no sources, tests, fixtures or source maps)', async () => {
    const { stdout } = await run('tar', ['tzf', tarball]);
    const files = stdout.trim().split('\n');
    expect(files).toContain('package/dist/cli.js');
    expect(files).toContain('package/package.json');
    expect(files).toContain('package/README.md');
    const unexpected = files.filter((file) => !/^package\/(dist\/.+\.(js|html|css|svg|png|ico|json|woff2?)|package\.json|README\.md|LICENSE)$/.test(file));
    expect(unexpected).toEqual([]);
  });

  it('npm install -g <packed tarball> puts a working agentwatch on PATH', async () => {
    const prefix = path.join(home.root, 'prefix-tarball');
    await npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', tarball]);
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await agentwatch(prefix, ['--version'])).stdout.trim()).toBe(pkg.version);
    const help = await agentwatch(prefix, ['--help']);
    expect(help.stdout).toContain('agentwatch limits');
    // A one-shot --demo command: sample windows, no login and no request needed.
    const limits = await agentwatch(prefix, ['limits', '--demo']);
    expect(limits.stdout).toContain('Sample data (--demo)');
    expect(limits.stdout).toContain('Claude');
  }, 180_000);

  it('npm install -g . from a clone links the clone as agentwatch', async () => {
    const prefix = path.join(home.root, 'prefix-clone');
    await npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--ignore-scripts', ROOT]);
    expect((await agentwatch(prefix, ['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const json = JSON.parse((await agentwatch(prefix, ['limits', '--demo', '--json'])).stdout) as { sample: boolean };
    expect(json.sample).toBe(true);
  }, 180_000);
});
