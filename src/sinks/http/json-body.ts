import type { FastifyError, FastifyInstance } from 'fastify';

/** Above any id a route accepts (512), so the route answers with its own message. */
export const MAX_PARAM_LENGTH = 2_048;

/** At most `max` characters of client input quoted in an error message (a URL can be tens of KB). */
export const clip = (text: string, max = 200): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** A clear, short message for what the router refuses before any route runs (URLs can be huge). */
export const frameworkMessage = (error: FastifyError): string => {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return `path parameter too long (at most ${MAX_PARAM_LENGTH} characters)`;
  if (error.code === 'FST_ERR_BAD_URL') return 'malformed URL (bad percent-encoding)';
  return clip(error.message);
};

class BodyError extends Error {
  readonly statusCode = 400;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

type Parser = Parameters<FastifyInstance['addContentTypeParser']>[2];

const strictJsonParser = (app: FastifyInstance): Parser => {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  return (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(new BodyError('body is not valid UTF-8'), undefined);
      return;
    }
    parseJson(request, text, done);
  };
};

/**
 * JSON bodies: bytes that are not UTF-8 are refused (400) rather than stored as replacement
 * characters, and `__proto__` / `constructor.prototype` keys are removed (they can only be an
 * attack on the parsed object, and removing them lets the rest of a body be answered normally
 * instead of a misleading "Body is not valid JSON").
 */
export const installJsonParser = (app: FastifyInstance): void => {
  // Bodies are JSON: Fastify's own text/plain parser handed routes a string they then called "not
  // a JSON object" (a 400 that hid the real mistake); without it, a 415 says what to send.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, strictJsonParser(app));
};

/**
 * In `scope` (an encapsulated plugin), every body is read as JSON, whatever its Content-Type or
 * without one, as lazyagent reads a rename: its clients send `text/plain` (a browser's `fetch`
 * with a string body) or no type at all, and got a 200 there, not a 415.
 */
export const installJsonForAnyType = (scope: FastifyInstance): void => {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, strictJsonParser(scope));
};
