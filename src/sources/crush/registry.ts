import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Env } from '../../config/paths.js';
import { crushDbPathIn, crushRegistryPath } from './paths.js';

/** `projects.json` as Crush writes it; fields the reader does not use are let through. */
const registrySchema = z.object({
  projects: z.array(z.looseObject({ path: z.string().min(1), data_dir: z.string().optional() })),
});

/** One project Crush was run in and the database of its sessions. */
export interface CrushProject {
  /** The project's folder: the working directory of every session in its database. */
  readonly project: string;
  readonly dbPath: string;
}

/**
 * The projects Crush's registry names, each once (by database), in the registry's order (most
 * recently used first). A relative data folder is the project's (Crush resolves it so); none
 * named is `<project>/.crush`. No registry, or one that is not the registry's shape: none.
 */
export const crushProjects = (env: Env, platform: NodeJS.Platform): CrushProject[] => {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(crushRegistryPath(env, platform), 'utf8')) as unknown;
  } catch {
    return [];
  }
  const parsed = registrySchema.safeParse(raw);
  if (!parsed.success) return [];
  const seen = new Set<string>();
  const projects: CrushProject[] = [];
  for (const entry of parsed.data.projects) {
    const dataDir = entry.data_dir ? path.resolve(entry.path, entry.data_dir) : path.join(entry.path, '.crush');
    const dbPath = crushDbPathIn(dataDir);
    if (seen.has(dbPath)) continue;
    seen.add(dbPath);
    projects.push({ project: entry.path, dbPath });
  }
  return projects;
};
