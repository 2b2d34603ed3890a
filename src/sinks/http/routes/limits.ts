import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../../config/effective.js';
import { LIMIT_AGENTS, type LimitAgent } from '../../../core/agents.js';
import { limitsJson, type LimitsJson } from '../../../limits/render-json.js';
import { resolveOutcomes } from '../../../limits/rows.js';
import type { Outcomes } from '../../../limits/types.js';

/**
 * `GET /api/limits[?agent=]`: the document `agentwatch limits --json` prints (docs/dashboard.md), read
 * from the providers once per request, never on a timer. Requests for the same agents within
 * SHARE_MS of a read share it (a dashboard and a panel opened together cause one read, not two).
 */

export const SHARE_MS = 5_000;

export interface LimitsDeps {
  /** One read of the providers for `agents` (fetchLimits), or generated sample windows in --demo. */
  readonly read: (agents: readonly LimitAgent[], now: number) => Promise<Outcomes>;
  /** --demo: the document is marked `"sample": true`, as `limits --demo --json` prints it. */
  readonly sample: boolean;
  readonly config: () => Config;
  readonly now: () => number;
}

const querySchema = z.object({
  agent: z.enum([...LIMIT_AGENTS, 'all'], { error: `agent must be one of ${[...LIMIT_AGENTS, 'all'].join(', ')}` }).optional(),
});

type LimitsDocument = LimitsJson & { readonly sample?: true };

export const registerLimitsRoute = (app: FastifyInstance, deps: LimitsDeps): void => {
  const reads = new Map<string, { readonly at: number; readonly document: Promise<LimitsDocument> }>();

  const readOnce = (agents: readonly LimitAgent[], explicit: boolean): Promise<LimitsDocument> => {
    const key = `${explicit ? '=' : '*'}${agents.join(',')}`;
    const now = deps.now();
    const shared = reads.get(key);
    if (shared && now - shared.at < SHARE_MS) return shared.document;
    const document = deps.read(agents, now).then((outcomes): LimitsDocument => {
      const json = limitsJson(resolveOutcomes(outcomes, explicit), now);
      return deps.sample ? { ...json, sample: true } : json;
    });
    reads.set(key, { at: now, document });
    // A failed read is not shared with later requests.
    document.catch(() => reads.delete(key));
    return document;
  };

  app.get('/api/limits', async (request, reply) => {
    const query = querySchema.safeParse(request.query);
    if (!query.success) return reply.code(400).send({ error: query.error.issues.map((issue) => issue.message).join('; ') });
    const config = deps.config();
    const enabled = LIMIT_AGENTS.filter((agent) => config.agents[agent]);
    const asked = query.data.agent;
    const explicit = asked !== undefined && asked !== 'all';
    if (explicit && !enabled.includes(asked)) return reply.code(409).send({ error: `${asked} is switched off in the config (agents.${asked}: false)` });
    const agents = explicit ? [asked] : enabled;
    if (agents.length === 0) return reply.code(409).send({ error: `nothing to query: ${LIMIT_AGENTS.join(', ')} are all switched off in the config` });
    return readOnce(agents, explicit);
  });
};
