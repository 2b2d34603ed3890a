import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import type { AgentKind } from '../core/agents.js';
import { agentStampRoots } from '../sources/agents.js';

/**
 * The file agents' high-water mark as a whole: one hash of every file's size, mtime and inode and
 * every directory's mtime under the places their sources read (transcripts and the side files
 * that name sessions). Equal to the last catch-up's: nothing was written, created, renamed or
 * deleted since, and the sources need not start at all (a warm start of every source costs seconds
 * on a large history; this costs a walk and a stat per file).
 */
export const fileAgentRoots = (agent: AgentKind, config: Config, env: Env, platform: NodeJS.Platform): string[] =>
  agentStampRoots(agent, { config, env, platform });

/** Deeper than any agent's layout (codex: sessions/YYYY/MM/DD/file); a deeper tree is not walked further. */
const MAX_DEPTH = 8;

/**
 * Pure over the file system's answers: the hash of what `roots` hold (absent roots count as
 * absent). Links are followed as the sources follow them, each directory once (a link cycle ends).
 */
export const treeStamp = (roots: readonly string[]): string => {
  const hash = createHash('sha1');
  const seenDirs = new Set<string>();
  const visit = (entry: string, depth: number): void => {
    const info = statSync(entry, { throwIfNoEntry: false });
    if (!info) {
      hash.update(`-${entry}\n`);
      return;
    }
    if (!info.isDirectory()) {
      hash.update(`f${entry}\u0000${info.size}\u0000${info.mtimeMs}\u0000${info.ino}\n`);
      return;
    }
    hash.update(`d${entry}\u0000${info.mtimeMs}\n`);
    const id = `${info.dev}:${info.ino}`;
    if (seenDirs.has(id) || depth >= MAX_DEPTH) return;
    seenDirs.add(id);
    let names: string[];
    try {
      names = readdirSync(entry).sort();
    } catch {
      hash.update(`!${entry}\n`);
      return;
    }
    for (const name of names) visit(path.join(entry, name), depth + 1);
  };
  for (const root of [...roots].sort()) visit(root, 0);
  return hash.digest('hex');
};
