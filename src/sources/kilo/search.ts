import type { Env } from '../../config/paths.js';
import type { AgentDatabase } from '../sqlite/many-databases.js';
import { openFamilyReader } from '../sqlite/opencode-family/reader.js';
import { KILO_SPEC } from './index.js';
import { kiloDbPaths } from './paths.js';

/** What search catches up: the database of each release channel. */
export const searchDatabases = (env: Env): AgentDatabase[] => kiloDbPaths(env).map((dbPath) => ({ dbPath, openReader: openFamilyReader(KILO_SPEC) }));
