import type { Env } from '../../config/paths.js';
import type { AgentDatabase } from '../sqlite/many-databases.js';
import { GOOSE_READER } from './index.js';
import { gooseDbPath } from './paths.js';

/** What search catches up: Goose's one sessions database. */
export const searchDatabases = (env: Env, platform: NodeJS.Platform): AgentDatabase[] => [{ dbPath: gooseDbPath(env, platform), openReader: GOOSE_READER }];
