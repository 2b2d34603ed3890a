import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { CLI_PATH, type CliResult } from '../../helpers/cli.js';

/**
 * Permission bits mean nothing to root: a "read-only" directory is writable for it. So a test of
 * what a read-only config does runs the CLI as an ordinary user. As root that is `nobody`, through
 * setpriv (the temp tree is handed to nobody first); as anyone else, the test's own user. Either
 * way the process really lacks the write permission the test takes away.
 */
export const NOBODY = { uid: 65534, gid: 65534 } as const;
export const isRoot = (): boolean => process.getuid?.() === 0;
export const canDropPrivileges = (): boolean => !isRoot() || existsSync('/usr/bin/setpriv');

/** Hand every file below `root` (and `root`) to nobody, without following symlinks. */
export const giveToNobody = async (root: string): Promise<void> => {
  if (!isRoot()) return;
  const walk = async (p: string): Promise<void> => {
    const stat = await lstat(p);
    await chown(p, NOBODY.uid, NOBODY.gid).catch(() => undefined);
    if (stat.isDirectory()) for (const name of await readdir(p)) await walk(path.join(p, name));
  };
  await walk(root);
};

export const runCliUnprivileged = (args: readonly string[], env: Record<string, string>, timeoutMs = 15_000): Promise<CliResult> =>
  new Promise((resolve, reject) => {
    const command = isRoot() ? '/usr/bin/setpriv' : process.execPath;
    const prefix = isRoot() ? [`--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', process.execPath] : [];
    const child = spawn(command, [...prefix, CLI_PATH, ...args], { env, cwd: env.HOME ?? '/', stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end('');
  });
