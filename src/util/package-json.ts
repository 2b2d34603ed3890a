import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the nearest folder above this module holding package.json. Found by walking
 * up, not by a fixed `../..`: the module runs from src/ (tests), from dist/ (tsc's output) and
 * from dist/chunks/ (the bundled CLI), each at another depth.
 */
export const packageRoot = (): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
};

/** One string field of our package.json (`version`, `homepage`), or undefined when it is missing or unreadable. */
export const packageField = (field: 'version' | 'homepage'): string | undefined => {
  try {
    const pkg: unknown = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8'));
    const value = typeof pkg === 'object' && pkg !== null ? (pkg as Record<string, unknown>)[field] : undefined;
    return typeof value === 'string' && value !== '' ? value : undefined;
  } catch {
    return undefined;
  }
};
