/**
 * Headers every answer of the server carries: session data is live and private, so never cached
 * and never sniffed into something else. One place, because two layers send answers: Fastify (an
 * onSend hook) and the front door while Fastify loads (front-door.ts).
 */
export const NO_STORE = 'no-store';
export const NOSNIFF = 'nosniff';

/** `content-type` of every JSON answer (what Fastify sends for an object). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Both, as headers of an answer sent without Fastify's onSend hook (the unfiltered list: routes.ts). */
export const PRIVATE: Readonly<Record<string, string>> = { 'cache-control': NO_STORE, 'x-content-type-options': NOSNIFF };
