import type { Source } from '../contracts.js';
import { makeFamilySource, type FamilySourceOptions } from '../sqlite/opencode-family/index.js';
import { kilo as kiloAgent, kiloResumeCommand } from './descriptor.js';
import { kiloDbPaths } from './paths.js';

/** Which agent and how to resume one of its sessions (the search index reads the same database). */
export const KILO_SPEC = { agent: 'kilo', label: kiloAgent.label, resumeCommand: kiloResumeCommand } as const;

/** Kilo Code CLI sessions: the opencode schema in `kilo.db` (docs/formats/opencode.md). */
export const makeKiloSource = (options: FamilySourceOptions = {}): Source => makeFamilySource(KILO_SPEC, (ctx) => kiloDbPaths(ctx.env), options);

export const kilo: Source = makeKiloSource();
