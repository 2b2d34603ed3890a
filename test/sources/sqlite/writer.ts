import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'writer-process.mjs');

interface Reply {
  readonly id: number;
  readonly ok: boolean;
  readonly error?: string;
}

/** A writer connection living in another process (the agent's role in a real setup). */
export interface RemoteWriter {
  readonly exec: (sql: string) => Promise<void>;
  readonly run: (sql: string, ...params: unknown[]) => Promise<void>;
  readonly close: () => Promise<void>;
}

export const spawnWriter = async (file: string, options: { wal?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<RemoteWriter> => {
  const child: ChildProcess = fork(SCRIPT, [file, options.wal === false ? 'rollback' : 'wal'], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...(options.env ? { env: options.env } : {}),
  });
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let next = 1;
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  child.on('message', (reply: Reply) => {
    if (reply.id === 0) return started();
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) waiter?.resolve();
    else waiter?.reject(new Error(reply.error ?? 'writer failed'));
  });
  await ready;
  const send = (message: object): Promise<void> =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, ...message });
    });
  let closed = false;
  return {
    exec: (sql) => send({ op: 'exec', sql }),
    run: (sql, ...params) => send({ op: 'run', sql, params }),
    close: async () => {
      if (closed) return;
      closed = true;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await send({ op: 'close' });
      await exited;
    },
  };
};
