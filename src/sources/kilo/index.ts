import type { Source } from '../../core/contracts.js';
import { makeFamilySource, type FamilySourceOptions } from '../sqlite/opencode-family/index.js';
import { kiloDbPath } from './paths.js';

/** Kilo Code CLI sessions: the opencode schema in `kilo.db` (AGENT-FORMATS §6). */
export const makeKiloSource = (options: FamilySourceOptions = {}): Source =>
  makeFamilySource({ agent: 'kilo', resumeCommand: (id) => `kilo --session=${id}` }, (ctx) => kiloDbPath(ctx.env), options);

export const kilo: Source = makeKiloSource();
