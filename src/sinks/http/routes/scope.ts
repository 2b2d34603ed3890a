import type { FastifyInstance } from 'fastify';
import type { ScopeDocument } from '../../../core/wire.js';

/**
 * `GET /api/scope`: what an empty dashboard says (every interface with no sessions says where it
 * looked, how many sessions exist outside the window, and what to do next): the
 * sessions known but older than the listing window, and the directories and databases the
 * sources read. Computed per request from the latest pipeline state; nothing is cached.
 */
export interface ScopeDeps {
  readonly scope: () => Promise<ScopeDocument>;
}

export const registerScopeRoute = (app: FastifyInstance, deps: ScopeDeps): void => {
  app.get('/api/scope', async () => deps.scope());
};
