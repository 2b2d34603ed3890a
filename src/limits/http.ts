import { LimitError } from './types.js';

/** One GET as the providers describe it; `secrets` are scrubbed from anything we print. */
interface HttpRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export interface HttpResponse {
  readonly status: number;
  readonly body: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Performs exactly one request (no retries, no redirects) or rejects with a LimitError. */
export type HttpGet = (request: HttpRequest) => Promise<HttpResponse>;

const TLS_CODES = new Set([
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** Turns a transport failure into a message a user can act on; never echoes headers. */
const describeTransportError = (error: unknown, url: string, timeoutMs: number): LimitError => {
  const host = hostOf(url);
  const code = error instanceof Error && 'code' in error ? String(error.code ?? '') : '';
  // NOTE: matched by name so this module does not import got eagerly (see gotGet).
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new LimitError('E_TIMEOUT', `no answer from ${host} within ${timeoutMs / 1000} s (request timed out)`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new LimitError('E_DNS', `could not resolve ${host} (DNS lookup failed: ${code}); check the network or the base URL`);
  }
  if (TLS_CODES.has(code) || /ssl|tls|certificate/i.test(error instanceof Error ? error.message : '')) {
    return new LimitError('E_TLS', `secure connection to ${host} failed (TLS error${code ? ` ${code}` : ''})`);
  }
  if (code === 'ECONNREFUSED') return new LimitError('E_NETWORK', `could not connect to ${host} (connection refused)`);
  if (code === 'ECONNRESET') return new LimitError('E_NETWORK', `connection to ${host} was reset before an answer arrived`);
  return new LimitError('E_NETWORK', `request to ${host} failed${code ? ` (${code})` : ''}`);
};

/** No usage answer comes near this; a bigger one is a broken or hostile endpoint, not data. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

const tooLarge = (url: string, maxBytes: number): LimitError =>
  new LimitError('E_TOO_LARGE', `answer from ${hostOf(url)} is larger than ${maxBytes / 1024 / 1024} MiB; not read (check the base URL)`);

/**
 * The production HttpGet: got with one attempt, a per-request timeout and no redirects. The body
 * is read only up to `maxBytes` (declared length or bytes received): a larger answer is aborted.
 * Exported for bench/limits-cap.mjs, which measures other caps through the build.
 * @public
 */
export const makeGotGet =
  (maxBytes = MAX_RESPONSE_BYTES): HttpGet =>
  async (request) => {
    // NOTE: loaded on first use, so a run without any login does not pay for got's start-up.
    const { got } = await import('got');
    let oversized = false;
    const pending = got(request.url, {
      method: 'GET',
      headers: { ...request.headers },
      timeout: { request: request.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'text',
    });
    pending.on('downloadProgress', (progress: { transferred: number; total?: number }) => {
      if (oversized || (progress.transferred <= maxBytes && (progress.total ?? 0) <= maxBytes)) return;
      oversized = true;
      pending.cancel();
    });
    try {
      const response = await pending;
      return { status: response.statusCode, body: response.body, headers: response.headers };
    } catch (error) {
      if (oversized) throw tooLarge(request.url, maxBytes);
      throw describeTransportError(error, request.url, request.timeoutMs);
    }
  };

export const gotGet: HttpGet = makeGotGet();

/**
 * The first 200 characters of a body, on one line, with every secret replaced. Used in error
 * messages so a changed endpoint is diagnosable without leaking a token a server echoed back.
 */
export const snippet = (body: string, secrets: readonly string[]): string => {
  let text = body.replace(/\s+/g, ' ').trim();
  for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('<redacted>');
  if (text.length === 0) return '(empty body)';
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
};
