import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { exhaustMap, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { Env } from '../../config/paths.js';
import { findOnPathAsync } from '../../util/find-on-path.js';
import { countLocalMessages, parseThreadList, planExports } from './thread-list.js';

/** At most one refresh per minute: it talks to Amp's servers (docs/formats/amp.md). */
const AMP_SYNC_INTERVAL_MS = 60_000;
const COMMAND_TIMEOUT_MS = 30_000;

const commandEnv = (env: Env): NodeJS.ProcessEnv => ({ ...env, NO_COLOR: '1' });

const listThreads = (amp: string, env: Env): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(amp, ['threads', 'list', '--no-color'], { env: commandEnv(env), timeout: COMMAND_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(new Error(`amp threads list failed: ${error.message}`)) : resolve(stdout),
    );
  });

/** Streams `amp threads export <id>` into `<id>.json.tmp` and renames it over `<id>.json` when non-empty. */
const exportThread = async (amp: string, env: Env, threadsDir: string, id: string): Promise<void> => {
  const target = path.join(threadsDir, `${id}.json`);
  const tmp = `${target}.tmp`;
  const code = await new Promise<number | null>((resolve, reject) => {
    const out = createWriteStream(tmp, { mode: 0o600 });
    const child = spawn(amp, ['threads', 'export', id, '--no-color'], { env: commandEnv(env), stdio: ['ignore', 'pipe', 'ignore'], timeout: COMMAND_TIMEOUT_MS });
    // Resolve once the process has exited AND the file is flushed (the pipe ends `out`).
    let exitCode: number | null | undefined;
    let flushed = false;
    out.on('close', () => {
      flushed = true;
      if (exitCode !== undefined) resolve(exitCode);
    });
    child.on('close', (c) => {
      exitCode = c;
      if (flushed) resolve(c);
    });
    child.on('error', (error) => {
      out.destroy();
      reject(error);
    });
    child.stdout.pipe(out);
  });
  const size = await stat(tmp).then((s) => s.size, () => 0);
  if (code === 0 && size > 0) await rename(tmp, target);
  else {
    await rm(tmp, { force: true });
    throw new Error(`amp threads export ${id} ${code === 0 ? 'printed nothing' : `exited with ${String(code)}`}`);
  }
};

export interface AmpExportSync {
  /** One refresh: list, compare, export what is missing or behind. Resolves to the ids exported. */
  readonly run: () => Promise<string[]>;
}

/**
 * The optional refresh for Amp versions that keep threads server-side: only when an `amp`
 * binary is on PATH. Failures of single exports are reported through `warn` and never stop
 * the others; the caller throttles (`AMP_SYNC_INTERVAL_MS`).
 */
export const createAmpExportSync = (env: Env, threadsDir: string, warn: (message: string) => void): AmpExportSync => {
  const previous = new Map<string, number>();
  return {
    run: async () => {
      const amp = await findOnPathAsync('amp', { path: env.PATH });
      if (!amp) return [];
      const remote = parseThreadList(await listThreads(amp, env));
      const local = new Map<string, number>();
      for (const thread of remote) {
        const text = await readFile(path.join(threadsDir, `${thread.id}.json`), 'utf8').catch(() => undefined);
        local.set(thread.id, countLocalMessages(text));
      }
      const ids = planExports(remote, (id) => local.get(id) ?? -1, previous);
      for (const thread of remote) previous.set(thread.id, thread.messages);
      const exported: string[] = [];
      if (ids.length > 0) await mkdir(threadsDir, { recursive: true });
      for (const id of ids) {
        try {
          await exportThread(amp, env, threadsDir, id);
          exported.push(id);
        } catch (error) {
          warn((error as Error).message);
        }
      }
      return exported;
    },
  };
};

/**
 * Runs `refresh` now and then every `periodMs`; a refresh still running when the next one is due
 * makes that one skip (never two `amp` processes at once, never more than one per period).
 */
export const scheduleRefresh = <T>(refresh: () => Observable<T>, scheduler: SchedulerLike, periodMs = AMP_SYNC_INTERVAL_MS): Observable<T> =>
  timer(0, periodMs, scheduler).pipe(exhaustMap(() => refresh()));
