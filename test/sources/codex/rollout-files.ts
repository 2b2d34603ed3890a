import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SessionState } from '../../../src/core/session.js';

/** The rollout fixtures: a thread in two files (segments) and the same files compressed with zstd. */
export const PLAIN_ROLLOUTS = path.resolve('fixtures/codex/segments');
export const COMPRESSED_ROLLOUTS = path.resolve('fixtures/codex/compressed');

/** Copies the fixture rollout `name` to `to`, as it is, or compressed (`to` + `.zst`); the path written. */
export const copyRollout = async (to: string, name: string, form: 'plain' | 'compressed' = 'plain'): Promise<string> => {
  const file = form === 'compressed' ? `${to}.zst` : to;
  await mkdir(path.dirname(file), { recursive: true });
  await copyFile(form === 'compressed' ? path.join(COMPRESSED_ROLLOUTS, `${name}.zst`) : path.join(PLAIN_ROLLOUTS, name), file);
  return file;
};

/** What the session shows, without where it was read from. */
export const shown = (state: SessionState | undefined): Omit<SessionState, 'checkpoint' | 'path'> | undefined => {
  if (!state) return undefined;
  const { checkpoint: _checkpoint, path: _path, ...rest } = state;
  return rest;
};
