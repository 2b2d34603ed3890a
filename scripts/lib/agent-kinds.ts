import { readdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const sourcesDir = new URL('../../src/sources/', import.meta.url);
export const agentKindsFile = fileURLToPath(new URL('../../src/core/agent-kinds.ts', import.meta.url));

/** The agents' folders: every folder of src/sources holding a descriptor.ts, sorted. */
export const agentKindsOnDisk = async (): Promise<string[]> => {
  const entries = await readdir(sourcesDir, { withFileTypes: true });
  const kinds: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const descriptor = await stat(new URL(`${entry.name}/descriptor.ts`, sourcesDir)).catch(() => null);
    if (descriptor?.isFile()) kinds.push(entry.name);
  }
  return kinds.sort();
};

/** The text of src/core/agent-kinds.ts for these kinds. */
export const agentKindsModule = (kinds: readonly string[]): string =>
  [
    '// Written by `npm run generate` from the folders of src/sources that hold a descriptor.ts: do not edit.',
    '',
    '/** Every agent kind agentwatch knows, in alphabetical order: every list and legend shows them so. */',
    `export const AGENT_KINDS = [${kinds.map((kind) => `'${kind}'`).join(', ')}] as const;`,
    '',
  ].join('\n');
