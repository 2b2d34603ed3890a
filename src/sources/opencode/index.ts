import type { Source } from '../../core/contracts.js';
import { makeFamilySource, type FamilySourceOptions } from '../sqlite/opencode-family/index.js';
import { opencodeDbPath } from './paths.js';

/** Which agent and how to resume one of its sessions (the search index reads the same database). */
export const OPENCODE_SPEC = { agent: 'opencode', resumeCommand: (id: string) => `opencode -s ${id}` } as const;

/** OpenCode sessions from its SQLite database (AGENT-FORMATS §5), polled read-only. */
export const makeOpencodeSource = (options: FamilySourceOptions = {}): Source => makeFamilySource(OPENCODE_SPEC, (ctx) => opencodeDbPath(ctx.env), options);

export const opencode: Source = makeOpencodeSource();
