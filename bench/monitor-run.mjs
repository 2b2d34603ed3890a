/**
 * What the issue-11 bench scripts (idle-cpu, sse-patch, api) share: the corpus they run on
 * (`--corpus DIR`, or a small generated one), the environment that points every path at it, and
 * a running `agentwatch --api` (the built dist/cli.js) with its token.
 *
 * `--corpus DIR`: a corpus root written by bench/corpus.mjs (DIR/manifest.json, DIR/home), or a
 * directory used as HOME as it is. Without it, `--sessions N` (default 300) claude/codex/pi
 * transcripts plus N/20 of every other agent are generated under bench/.corpus-<name>.
 */
import { spawn, spawnSync } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataHome, homeEnv } from './corpus-agents.mjs';
import { ensureRecentCorpus, refreshCursor } from './corpus.mjs';
import { arg, sleep } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLI = process.env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js');
const PASSPHRASE = 'monitor benchmark passphrase';
const SALT = 'issue-11-bench-salt';
export const TOKEN = pbkdf2Sync(PASSPHRASE, SALT, 600_000, 32, 'sha256').toString('base64url');

/** `--name VALUE` as a string, else `fallback`. */
export const stringArg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};

/** The corpus HOME and where its caches go; generates a small corpus when no --corpus is given. */
export const resolveCorpus = (name) => {
  const given = stringArg('corpus', undefined);
  if (given === undefined) {
    const root = path.join(here, `.corpus-${name}`);
    const manifest = ensureRecentCorpus({ root, sessions: arg('sessions', 300), meanKb: 20 });
    refreshCursor(manifest);
    return { home: manifest.home, root, files: manifest.files, bytes: manifest.bytes };
  }
  const dir = path.resolve(given);
  const manifestFile = path.join(dir, 'manifest.json');
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    return { home: manifest.home, root: dir, files: manifest.files, bytes: manifest.bytes };
  }
  return { home: dir, root: dir };
};

/** HOME and XDG_* on the corpus; the discovery cache under `<root>/xdg-cache-<tag>`; a config with a 7-day window. */
export const corpusEnv = (corpus, tag, config = {}) => {
  const env = { ...homeEnv(corpus.home, path.join(corpus.root, `xdg-cache-${tag}`)), TZ: 'UTC', AGENTWATCH_API_PASSPHRASE: PASSPHRASE };
  const dir = path.join(env.XDG_CONFIG_HOME, 'agentwatch');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ window_minutes: 10080, api_salt: SALT, notifications: false, ...config }));
  return env;
};

/** One `sessions --all --json` run, so the following `--api` start is a warm one (as a user's usually is). */
export const warmCache = (env, cli = CLI) => {
  const result = spawnSync(process.execPath, [cli, 'sessions', '--all', '--json'], { env, cwd: env.HOME, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`agentwatch sessions failed: ${result.stderr}`);
};

export const procCpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
export const procStatusMiB = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
/** USER_HZ on Linux. */
export const CLOCK_TICKS = 100;

/**
 * Starts `agentwatch --api` on an ephemeral port; resolves once it listens, with its base URL,
 * the time to listen and a `ready()` that waits for the first discovery (stats.ready).
 */
export const startMonitor = async (env, { cli = CLI, args = [], nodeArgs = [] } = {}) => {
  const started = Date.now();
  const child = spawn(process.execPath, [...nodeArgs, cli, '--api', '--host', '127.0.0.1:0', ...args], { env, cwd: env.HOME, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let base;
  while (!(base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1])) {
    if (child.exitCode !== null) throw new Error(`agentwatch --api exited ${child.exitCode}: ${stderr}`);
    await sleep(10);
  }
  const listenMs = Date.now() - started;
  const headers = { authorization: `Bearer ${TOKEN}` };
  const stats = () => fetch(`${base}/api/stats`, { headers }).then((r) => r.json());
  return {
    child,
    base,
    headers,
    listenMs,
    stats,
    stderr: () => stderr,
    ready: async () => {
      for (;;) {
        const s = await stats().catch(() => ({}));
        // A build from before `ready` existed in the stats listens only once its discovery is done.
        if (s.ready === true || (s.ready === undefined && typeof s.total_sessions === 'number')) return { ...s, readyMs: Date.now() - started };
        await sleep(100);
      }
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
};

/** The agent directories a corpus HOME has (the trees the sources watch). */
export const agentTrees = (home) =>
  [
    path.join(home, '.claude', 'projects'),
    path.join(home, '.codex', 'sessions'),
    path.join(home, '.pi', 'agent', 'sessions'),
    path.join(dataHome(home), 'amp', 'threads'),
    path.join(home, '.grok', 'sessions'),
    path.join(home, '.kimi-code'),
    path.join(dataHome(home), 'opencode'),
    path.join(dataHome(home), 'kilo'),
  ].filter((dir) => existsSync(dir));

/**
 * The idle corpus (bench/.corpus-idle, recent, `sessions` claude/codex/pi transcripts) that
 * idle-cpu.mjs and memory.mjs share, with HOME and XDG_* on it, a config with a 7-day window and
 * the API token. `extraEnv` names variables passed through from this process (malloc tuning).
 */
export const idleCorpus = ({ sessions, extraEnv = [] }) => {
  const root = path.join(here, '.corpus-idle');
  const corpus = ensureRecentCorpus({ root, sessions, meanKb: 20 });
  const salt = 'idle-bench-salt';
  const env = {
    ...homeEnv(corpus.home, path.join(root, 'xdg-cache')),
    AGENTWATCH_API_PASSPHRASE: 'idle benchmark passphrase',
    ...Object.fromEntries(extraEnv.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
  };
  const configDir = path.join(env.XDG_CONFIG_HOME, 'agentwatch');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ window_minutes: 10080, api_salt: salt }));
  const token = pbkdf2Sync(env.AGENTWATCH_API_PASSPHRASE, salt, 600_000, 32, 'sha256').toString('base64url');
  return { root, corpus, env, token };
};

/** Polls `/api/stats` until the first discovery is done and has listed sessions; those stats. */
export const statsWhenReady = async (base, token) => {
  for (;;) {
    const stats = await fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()).catch(() => ({}));
    if (stats.ready !== false && stats.total_sessions > 0) return stats;
    await sleep(100);
  }
};
