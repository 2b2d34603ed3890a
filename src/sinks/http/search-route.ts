import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseAgentList, DEFAULT_LIMIT } from '../../search/options.js';
import type { LiveIndex } from '../../search/live.js';
import { SearchUnavailableError } from '../../search/unavailable.js';
import { QuerySyntaxError, toJsonResults } from '../../search/query.js';
import { LIMIT_RANGE } from '../../core/ranges.js';

const LIMIT_NOT_WHOLE = 'limit must be a whole number';
const LIMIT_OUTSIDE = `limit must be from ${LIMIT_RANGE.min} to ${LIMIT_RANGE.max}`;

const querySchema = z.object({
  q: z.string({ error: 'q (the search query) is required' }).trim().min(1, 'q (the search query) is required').max(1_000, 'q must be at most 1000 characters'),
  agent: z.string().optional(),
  // The range and the plain decimal digits of `search --limit` (core/ranges.ts): the route answers
  // what the command prints for the same query.
  limit: z
    .string({ error: LIMIT_NOT_WHOLE })
    .regex(/^[0-9]+$/, LIMIT_NOT_WHOLE)
    .transform(Number)
    .pipe(z.number().min(LIMIT_RANGE.min, LIMIT_OUTSIDE).max(LIMIT_RANGE.max, LIMIT_OUTSIDE))
    .optional(),
});

/** Set on an answer given while the index still catches up (docs/search.md). */
const INDEXING_HEADER = 'agentwatch-indexing';

/** `GET /api/search?q=&agent=&limit=` (docs/search.md): the JSON of `agentwatch search --json`. */
export const registerSearchRoute = (app: FastifyInstance, index: LiveIndex): void => {
  app.get('/api/search', async (request, reply) => {
    const parsed = querySchema.safeParse(request.query);
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.issues.map((issue) => issue.message).join('; ') });
    let agents;
    try {
      // The same check as `search --agent`, named as this route's parameter.
      agents = parseAgentList(parsed.data.agent, 'agent');
    } catch (error) {
      return reply.code(400).send({ error: (error as Error).message });
    }
    try {
      const results = toJsonResults(await index.search(parsed.data.q, { ...(agents ? { agents } : {}), limit: parsed.data.limit ?? DEFAULT_LIMIT }));
      // The index still reads the history: these are the hits among what it holds so far.
      if (index.indexing()) void reply.header(INDEXING_HEADER, 'catching-up');
      return results;
    } catch (error) {
      if (error instanceof QuerySyntaxError) return reply.code(400).send({ error: error.message });
      if (error instanceof SearchUnavailableError) return reply.code(503).send({ error: error.message });
      throw error;
    }
  });
};
