import type { Env } from '../../config/paths.js';
import type { AgentDatabase } from '../sqlite/many-databases.js';
import type { OpenReader } from '../sqlite/reader.js';
import { cursorDbPath } from './paths.js';
import { openCursorReader } from './reader.js';

/** Every composer, not only those of the last 48 hours a monitor lists: search is about history. */
const allComposers: OpenReader = (db, dbPath) => openCursorReader(db, dbPath, Number.POSITIVE_INFINITY);

/** What search catches up: the IDE's composer database. */
export const searchDatabases = (env: Env, platform: NodeJS.Platform): AgentDatabase[] => [{ dbPath: cursorDbPath(env, platform), openReader: allComposers }];
