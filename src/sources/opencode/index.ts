import type { Source } from '../../core/contracts.js';
import { makeFamilySource, type FamilySourceOptions } from '../sqlite/opencode-family/index.js';
import { opencodeDbPath } from './paths.js';

/** OpenCode sessions from its SQLite database (AGENT-FORMATS §5), polled read-only. */
export const makeOpencodeSource = (options: FamilySourceOptions = {}): Source =>
  makeFamilySource({ agent: 'opencode', resumeCommand: (id) => `opencode -s ${id}` }, (ctx) => opencodeDbPath(ctx.env), options);

export const opencode: Source = makeOpencodeSource();
