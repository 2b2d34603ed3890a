import type { Source } from '../contracts.js';
import { pollManyDatabases } from '../sqlite/many-databases.js';
import type { AgentDatabase } from '../sqlite/many-databases.js';
import type { Env } from '../../config/paths.js';
import { crush as crushAgent, crushResumeCommand } from './descriptor.js';
import { openCrushReader } from './reader.js';
import { crushProjects } from './registry.js';

export interface CrushSourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/** Every project database Crush's registry names, each with the reader that knows its project. */
export const crushDatabases = (env: Env, platform: NodeJS.Platform): AgentDatabase[] =>
  crushProjects(env, platform).map(({ project, dbPath }) => ({ dbPath, openReader: openCrushReader({ project, resumeCommand: crushResumeCommand }) }));

/** Crush sessions from each project's `.crush/crush.db` (docs/formats/crush.md), polled read-only. */
export const makeCrushSource = (options: CrushSourceOptions = {}): Source =>
  pollManyDatabases({
    agent: 'crush',
    label: crushAgent.label,
    databasesOf: (ctx) => crushDatabases(ctx.env, ctx.platform),
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
  });

export const crush: Source = makeCrushSource();
