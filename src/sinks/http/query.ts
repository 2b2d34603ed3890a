import path from 'node:path';
import { z } from 'zod';
import { ACTIVITY_FILTERS, matchesActivityFilter } from '../../core/activity.js';
import type { SessionSummary } from '../../core/session.js';
// The same path-segment-aware matching as `agentwatch sessions --dir`.
import { isWithinDir } from '../../streams/visibility.js';

/** `GET /api/sessions` query string; every problem becomes a 400 with one clear message. */
export const listQuerySchema = z.object({
  search: z.string({ error: 'search must be a single string' }).max(500, 'search is longer than 500 characters').default(''),
  filter: z
    .enum(ACTIVITY_FILTERS, { error: `filter must be "", "active" or an activity (${ACTIVITY_FILTERS.slice(2).join(', ')})` })
    .default(''),
  dir: z
    .string({ error: 'dir must be a single string' })
    .refine((dir) => dir === '' || path.posix.isAbsolute(dir) || path.win32.isAbsolute(dir), {
      error: 'dir must be an absolute path',
    })
    .default(''),
});

export type ListQuery = z.infer<typeof listQuerySchema>;

const matchesSearch = (session: SessionSummary, needle: string): boolean =>
  [session.cwd, session.short_name, session.agent_name, session.custom_name].some((field) => field.toLowerCase().includes(needle));

export const isEmptyQuery = (query: ListQuery): boolean => query.search.trim() === '' && query.filter === '' && query.dir === '';

/**
 * Pure: does one session pass the query? `dirs` are the paths of `query.dir` to match, as
 * `agentwatch sessions --dir` matches them (the route passes util/dir-forms.ts's: as given and real).
 */
export const matchesQuery = (session: SessionSummary, query: ListQuery, dirs: readonly string[] = [query.dir]): boolean => {
  const needle = query.search.trim().toLowerCase();
  return (
    (needle === '' || matchesSearch(session, needle)) &&
    matchesActivityFilter(query.filter, session.activity) &&
    (query.dir === '' || dirs.some((dir) => isWithinDir(session.cwd, dir)))
  );
};

/** Pure: the sessions a list query selects, order kept. */
export const selectSessions = <S extends SessionSummary>(sessions: readonly S[], query: ListQuery): S[] =>
  isEmptyQuery(query) ? [...sessions] : sessions.filter((session) => matchesQuery(session, query));
