import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseAgentList, DEFAULT_LIMIT } from '../../commands/search.js';
import type { LiveIndex } from '../../search/live.js';
import { QuerySyntaxError, toJsonResults } from '../../search/query.js';

const querySchema = z.object({
  q: z.string({ error: 'q (the search query) is required' }).trim().min(1, 'q (the search query) is required').max(1_000, 'q must be at most 1000 characters'),
  agent: z.string().optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be from 1 to 200')
    .max(200, 'limit must be from 1 to 200')
    .optional(),
});

/** `GET /api/search?q=&agent=&limit=` (PRODUCT.md 8): the JSON of `agentwatch search --json`. */
export const registerSearchRoute = (app: FastifyInstance, index: LiveIndex): void => {
  app.get('/api/search', async (request, reply) => {
    const parsed = querySchema.safeParse(request.query);
    if (!parsed.success) return reply.code(400).send({ error: parsed.error.issues.map((issue) => issue.message).join('; ') });
    let agents;
    try {
      agents = parseAgentList(parsed.data.agent);
    } catch (error) {
      return reply.code(400).send({ error: (error as Error).message });
    }
    try {
      return toJsonResults(await index.search(parsed.data.q, { ...(agents ? { agents } : {}), limit: parsed.data.limit ?? DEFAULT_LIMIT }));
    } catch (error) {
      if (error instanceof QuerySyntaxError) return reply.code(400).send({ error: error.message });
      throw error;
    }
  });
};
