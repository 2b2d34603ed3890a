import type { Source } from '../contracts.js';
import { makeFamilySource, type FamilySourceOptions } from '../sqlite/opencode-family/index.js';
import { opencode as opencodeAgent, opencodeResumeCommand } from './descriptor.js';
import { opencodeDbPaths } from './paths.js';

/** Which agent and how to resume one of its sessions (the search index reads the same database). */
export const OPENCODE_SPEC = { agent: 'opencode', label: opencodeAgent.label, resumeCommand: opencodeResumeCommand } as const;

/** OpenCode sessions from its SQLite databases (docs/formats/opencode.md; one per release channel), polled read-only. */
export const makeOpencodeSource = (options: FamilySourceOptions = {}): Source => makeFamilySource(OPENCODE_SPEC, (ctx) => opencodeDbPaths(ctx.env), options);

export const opencode: Source = makeOpencodeSource();
