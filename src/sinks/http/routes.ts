import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Config } from '../../config/effective.js';
import { publicConfig } from '../../config/effective.js';
import { dirForms } from '../../util/dir-forms.js';
import { isEmptyQuery, listQuerySchema, matchesQuery } from './query.js';
import type { DeliveryRecord } from '../webhook/delivery-store.js';
import type { SessionStore } from './store.js';
import { installJsonForAnyType } from './json-body.js';
import { JSON_TYPE, PRIVATE } from './private-headers.js';
import { authInfo } from './token.js';
import { NAME_CHARACTERS_RULE, nameCharactersProblem } from '../../core/name-characters.js';
import { describeFault, storageFault } from '../../util/storage-fault.js';

/** The lazyagent-compatible REST routes of docs/api.md (SSE lives in sse.ts, the playground in playground.ts). */

const MAX_NAME_LENGTH = 200;

// `null` clears the name, as "" does (lazyagent reads null as ""); a body without `name` is a mistake.
const renameBodySchema = z.object(
  {
    name: z
      .string({ error: 'name must be a string' })
      .max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`)
      .refine((name) => !/\p{Cc}/u.test(name), { error: 'name must not contain control characters' })
      .refine((name) => nameCharactersProblem(name) === undefined, { error: NAME_CHARACTERS_RULE })
      .nullable(),
  },
  { error: 'expected a JSON object { "name": "..." }' },
);

const deliveriesQuerySchema = z.object({
  webhook: z.string().min(1, 'webhook must not be empty').optional(),
  limit: z.coerce.number({ error: 'limit must be a number' }).int('limit must be an integer').min(1, 'limit must be at least 1').max(1000, 'limit must be at most 1000').default(50),
});

const idParamsSchema = z.object({ id: z.string().min(1, 'session id must not be empty').max(512, 'session id must be at most 512 characters') });

/** A names file its folder will not take (read-only, forbidden, a full disk) is the state of the machine: 409, as PUT /api/config answers. */
const renameOr409 = async <T>(reply: FastifyReply, rename: () => Promise<T>): Promise<T | FastifyReply> => {
  try {
    return await rename();
  } catch (error) {
    const fault = storageFault(error);
    if (fault === undefined || fault === 'io') throw error;
    return reply.code(409).send({ error: `cannot save the name: ${describeFault(fault)} (${(error as Error).message})` });
  }
};

// Names are kept for ids not known yet: `__proto__` is the one key the names object cannot hold.
const nameParamsSchema = idParamsSchema.refine((params) => params.id !== '__proto__', { error: 'session id "__proto__" cannot be named' });

const badRequest = (reply: FastifyReply, error: z.ZodError): FastifyReply =>
  reply.code(400).send({ error: error.issues.map((issue) => issue.message).join('; ') });

const notFound = (reply: FastifyReply, id: string): FastifyReply => reply.code(404).send({ error: `unknown session ${JSON.stringify(id)}` });

export const registerRoutes = (
  app: FastifyInstance,
  deps: {
    readonly store: SessionStore;
    readonly salt: string;
    readonly config: () => Config;
    /** Recent webhook deliveries (the durable queue's log), newest first. */
    readonly deliveries?: ((query: { webhook?: string | undefined; limit: number }) => readonly DeliveryRecord[]) | undefined;
  },
): void => {
  app.get('/api/auth', { config: { access: 'public' } }, async () => authInfo(deps.salt));

  // The headers of the unfiltered list, built once per snapshot (its bytes).
  let listHeaders: { readonly bytes: Buffer; readonly headers: Readonly<Record<string, string>> } | undefined;
  app.get('/api/sessions', (request, reply) => {
    // The common request, what clients poll (no query string): the snapshot's bytes, joined once
    // per change from each session's cached JSON; no query parsing, nothing serialised per request.
    if (!request.url.includes('?')) {
      const bytes = deps.store.current().summariesBytes;
      if (listHeaders?.bytes !== bytes) listHeaders = { bytes, headers: { ...PRIVATE, 'content-type': JSON_TYPE, 'content-length': String(bytes.length) } };
      reply.hijack();
      reply.raw.writeHead(200, listHeaders.headers);
      reply.raw.end(bytes);
      return;
    }
    const query = listQuerySchema.safeParse(request.query);
    if (!query.success) {
      badRequest(reply, query.error);
      return;
    }
    const snapshot = deps.store.current();
    reply.type(JSON_TYPE);
    if (isEmptyQuery(query.data)) {
      void reply.send(snapshot.summariesBytes);
      return;
    }
    const dirs = query.data.dir === '' ? [] : dirForms(query.data.dir);
    const selected = snapshot.sessions.filter((session) => matchesQuery(session.summary, query.data, dirs));
    void reply.send(`[${selected.map((session) => session.json).join(',')}]`);
  });

  app.get('/api/sessions/:id', async (request, reply) => {
    const params = idParamsSchema.safeParse(request.params);
    if (!params.success) return badRequest(reply, params.error);
    const session = deps.store.current().find(params.data.id);
    return session ?? notFound(reply, params.data.id);
  });

  // As lazyagent: a name is kept for any session id, known yet or not (a client may rename a session
  // it listed before a restart, while the first discovery still runs), and the body is JSON
  // whatever its Content-Type says (json-body.ts).
  void app.register(async (scope) => {
    installJsonForAnyType(scope);

    scope.put('/api/sessions/:id/name', async (request, reply) => {
      const params = nameParamsSchema.safeParse(request.params);
      if (!params.success) return badRequest(reply, params.error);
      const body = renameBodySchema.safeParse(request.body);
      if (!body.success) return badRequest(reply, body.error);
      // An empty name resets, as DELETE does (clients that clear the field send "" or null).
      return renameOr409(reply, () => deps.store.rename(params.data.id, body.data.name ?? undefined));
    });

    scope.delete('/api/sessions/:id/name', async (request, reply) => {
      const params = nameParamsSchema.safeParse(request.params);
      if (!params.success) return badRequest(reply, params.error);
      return renameOr409(reply, () => deps.store.rename(params.data.id, undefined));
    });
  });

  // `degraded` only while a store runs without its disk: what is degraded, why, and since when (the store's stats carry it).
  app.get('/api/stats', async () => deps.store.current().stats);

  app.get('/api/config', async () => publicConfig(deps.config()));

  app.get('/api/webhooks/deliveries', async (request, reply) => {
    const query = deliveriesQuerySchema.safeParse(request.query);
    if (!query.success) return badRequest(reply, query.error);
    try {
      return deps.deliveries?.({ webhook: query.data.webhook, limit: query.data.limit }) ?? [];
    } catch (error) {
      return reply.code(503).send({ error: `the webhook delivery log cannot be read: ${(error as Error).message}` });
    }
  });
};
