/**
 * The dashboard's HTTP client: bearer token on every call, JSON in and out, and the server's
 * `{ "error": ... }` message carried by the thrown HttpError (shown at the field that caused it).
 */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface Api {
  readonly get: <T>(path: string) => Promise<T>;
  readonly send: <T>(method: 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<T>;
  /** `send` that also hands back the answer's headers. */
  readonly request: <T>(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) => Promise<{ data: T; headers: Headers }>;
}

const messageOf = async (response: Response): Promise<string> => {
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not JSON: fall through to the status line.
  }
  return `${response.status} ${response.statusText}`.trim();
};

/** `onUnauthorized` runs on any 401 (the token was refused: back to the login). */
export const createApi = (token: string, onUnauthorized: () => void): Api => {
  const request = async <T>(method: string, path: string, body?: unknown): Promise<{ data: T; headers: Headers }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, { method, headers, cache: 'no-store', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    if (response.status === 401) onUnauthorized();
    if (!response.ok) throw new HttpError(response.status, await messageOf(response));
    const text = await response.text();
    return { data: (text === '' ? undefined : JSON.parse(text)) as T, headers: response.headers };
  };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => (await request<T>(method, path, body)).data;
  return {
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
    request: (method, path, body) => request(method, path, body),
  };
};
