import type { Env } from '../../config/paths.js';
import type { AgentDatabase } from '../sqlite/many-databases.js';
import { openFamilyReader } from '../sqlite/opencode-family/reader.js';
import { OPENCODE_SPEC } from './index.js';
import { opencodeDbPaths } from './paths.js';

/** What search catches up: the database of each release channel. */
export const searchDatabases = (env: Env): AgentDatabase[] => opencodeDbPaths(env).map((dbPath) => ({ dbPath, openReader: openFamilyReader(OPENCODE_SPEC) }));
