import type { Env } from '../../config/paths.js';
import type { AgentDatabase } from '../sqlite/many-databases.js';
import { crushDatabases } from './index.js';

/** What search catches up: every project database, as the monitor polls them. */
export const searchDatabases = (env: Env, platform: NodeJS.Platform): AgentDatabase[] => crushDatabases(env, platform);
