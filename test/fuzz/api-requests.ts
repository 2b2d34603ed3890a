import { pick, randInt, type Rng } from './prng.js';
import { chance, deeplyNestedJson, hostileString, prototypeKeysJson, randomJson, randomString } from './input-helpers.js';
import { SESSION_IDS, TOKEN } from './api-server.js';

/**
 * Random HTTP requests against the API, shaped like what reaches the socket: methods, paths with
 * hostile parameters (percent-encoded or raw bytes), query strings with repeated and bracketed
 * names, every kind of Authorization header, Content-Types a client may send, and bodies from
 * plausible to garbage. Also says what the answer must be (public route, valid token).
 */

export interface FuzzRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string | Buffer;
}

interface Route {
  readonly method: string;
  readonly path: string;
  /** A body this route takes, for the "almost right" cases. */
  readonly body?: (rng: Rng) => unknown;
}

const CONFIG_FIELDS: Readonly<Record<string, (rng: Rng) => unknown>> = {
  window_minutes: (rng) => pick(rng, [1, 30, 10_080, 0, 10_081, 2.5, -1, '30', null]),
  default_filter: (rng) => pick(rng, ['', 'active', 'waiting', 'busy', 0, null]),
  editor: (rng) => hostileString(rng),
  launch_at_login: (rng) => pick(rng, [true, false, 'yes', 0]),
  notifications: (rng) => pick(rng, [true, false, 'no', 1]),
  notify_after_sec: (rng) => pick(rng, [1, 30, 86_400, 86_401, 0, 1.5]),
  agents: (rng) => pick(rng, [{ claude: false }, { codex: true, pi: false }, { claud: false }, { claude: 'no' }, [], null, {}]),
  claude_dirs: (rng) => pick(rng, [[], ['/srv/claude'], [hostileString(rng)], '/srv', [1]]),
  exclude_cwd_substrings: (rng) => pick(rng, [[], ['tmp'], [hostileString(rng)], 'tmp', [null]]),
  tui: (rng) => pick(rng, [{ theme: 'dark' }, { theme: 'auto' }, { them: 'dark' }, { theme: 'blue' }, 'dark', {}]),
  card_density: (rng) => pick(rng, ['compact', 'rich', 'live', 'huge', 1]),
  terminal: (rng) => pick(rng, ['terminal', 'kitty', 'iterm', null]),
  detail_width: (rng) => pick(rng, [300, 640, 2000, 299, 2001, 400.5, '400']),
  webhooks: (rng) =>
    pick(rng, [
      [],
      [{ name: 'ci', url: 'http://127.0.0.1:9/hook' }],
      [{ name: 'ci', url: 'http://127.0.0.1:9/hook', secret: 's', events: ['waiting'], agents: ['claude'], enabled: false, extra: randomJson(rng) }],
      [{ name: 'ci', url: 'ftp://x' }],
      [{ name: '', url: 'http://x/' }],
      [{ name: 'ci', url: 'http://x/', events: 'waiting' }],
      [{ name: 'ci', url: 'http://x/', signature: 'standard-webhooks', secret: 'nope' }],
      [randomJson(rng)],
      { name: 'ci' },
    ]),
  api_passphrase: () => 'a new one that is long',
  api_salt: () => 'x',
  window_minuts: () => 5,
};

/** A partial config: a few fields, each right or wrong. */
export const configBody = (rng: Rng): Record<string, unknown> => {
  const body: Record<string, unknown> = {};
  const keys = Object.keys(CONFIG_FIELDS);
  for (let i = randInt(rng, 1, 3); i > 0; i -= 1) {
    const key = pick(rng, keys);
    body[key] = chance(rng, 0.85) ? (CONFIG_FIELDS[key] as (rng: Rng) => unknown)(rng) : randomJson(rng, 2);
  }
  return body;
};

export const nameBody = (rng: Rng): unknown =>
  pick(rng, [{ name: hostileString(rng) }, { name: randomString(rng, 40) }, { name: null }, { name: '' }, { name: 'x'.repeat(201) }, { name: 5 }, { title: 'x' }, randomJson(rng)]);

const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/api/auth' },
  { method: 'GET', path: '/api' },
  { method: 'GET', path: '/api/sessions' },
  { method: 'GET', path: '/api/sessions/:id' },
  { method: 'PUT', path: '/api/sessions/:id/name', body: nameBody },
  { method: 'DELETE', path: '/api/sessions/:id/name' },
  { method: 'GET', path: '/api/stats' },
  { method: 'GET', path: '/api/config' },
  { method: 'PUT', path: '/api/config', body: configBody },
  { method: 'PUT', path: '/api/passphrase', body: (rng) => pick(rng, [{ new: hostileString(rng) }, { current: 'x', new: 'a brand new passphrase' }, { new: 5 }, { show: true }]) },
  { method: 'GET', path: '/api/webhooks/deliveries' },
  { method: 'GET', path: '/api/limits' },
  { method: 'GET', path: '/api/scope' },
  { method: 'POST', path: '/api/sessions/:id/actions/resume', body: () => ({}) },
  { method: 'POST', path: '/api/sessions/:id/actions/editor' },
  { method: 'GET', path: '/api/search' },
  { method: 'GET', path: '/api/events' },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/index.html' },
  { method: 'GET', path: '/assets/:rest' },
  { method: 'GET', path: '/:file' },
  { method: 'OPTIONS', path: '/api/sessions/:id/name' },
  { method: 'GET', path: '/:file/:file' },
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'SEARCH'] as const;
const QUERY_NAMES = ['search', 'filter', 'dir', 'token', 'q', 'agent', 'limit', 'format', 'webhook', 'a[]', 'a[b]', '__proto__', 'constructor', ''] as const;

/**
 * Characters that cannot travel raw in a request line, percent-encoded, and `\` (URL parsing would
 * read it as `/`); everything else (a bad `%` included) as is.
 */
const wireSafe = (text: string): string =>
  [...text].map((char) => (/^[\x21-\x7e]$/.test(char) && !'#?\\'.includes(char) ? char : Buffer.from(char, 'utf8').toString('hex').replace(/(..)/g, '%$1'))).join('');

/** A value in a URL: percent-encoded as a client would, or as raw bytes (bad escapes, `../`, `%00` kept). */
const urlPart = (rng: Rng, value: string): string => {
  if (chance(rng, 0.6)) {
    try {
      return encodeURIComponent(value);
    } catch {
      // A lone surrogate: no client can encode it; send its bytes.
    }
  }
  return wireSafe(value);
};

const paramValue = (rng: Rng): string => (chance(rng, 0.4) ? pick(rng, [...SESSION_IDS, 'unknown-session']) : hostileString(rng));

const queryString = (rng: Rng): string => {
  if (chance(rng, 0.4)) return '';
  if (chance(rng, 0.1)) return `?${wireSafe(pick(rng, ['&&==', '=', '&', '%', '%%%', 'token', 'a=1&a=2&a=3', '?', `token=${TOKEN}&token=${TOKEN}`]))}`;
  const parts: string[] = [];
  for (let i = randInt(rng, 1, 4); i > 0; i -= 1) {
    const name = chance(rng, 0.85) ? pick(rng, QUERY_NAMES) : hostileString(rng);
    const value = name === 'token' && chance(rng, 0.5) ? TOKEN : hostileString(rng);
    parts.push(`${urlPart(rng, name)}=${urlPart(rng, value)}`);
    if (chance(rng, 0.15)) parts.push(`${urlPart(rng, name)}=${urlPart(rng, hostileString(rng))}`);
  }
  return `?${parts.join('&')}`;
};

const authorization = (rng: Rng): string | undefined => {
  const kind = rng();
  if (kind < 0.55) return pick(rng, [`Bearer ${TOKEN}`, `bearer ${TOKEN}`, `BEARER   ${TOKEN}  `]);
  if (kind < 0.65) return undefined;
  return pick(rng, [
    'Bearer',
    'Bearer ',
    `Bearer ${TOKEN}x`,
    `Bearer ${TOKEN.slice(1)}`,
    `Bearer ${TOKEN} ${TOKEN}`,
    `Bearer ${TOKEN}, Bearer ${TOKEN}`,
    `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`,
    `Token ${TOKEN}`,
    `${TOKEN}`,
    `Bearer ${wireSafe(hostileString(rng))}`,
    'Bearer \u00e9\u00e9',
    '',
  ]);
};

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/octet-stream',
  '*/*',
  ';',
  'application/json;;;',
  '',
] as const;

const body = (rng: Rng, route: Route): string | Buffer => {
  const kind = rng();
  if (kind < 0.45 && route.body) return JSON.stringify(route.body(rng));
  if (kind < 0.55) return JSON.stringify(randomJson(rng));
  if (kind < 0.62 && route.body) {
    const text = JSON.stringify(route.body(rng));
    return text.slice(0, randInt(rng, 0, text.length - 1));
  }
  if (kind < 0.7) return prototypeKeysJson(rng, route.body ? (route.body(rng) as Record<string, unknown>) : {});
  if (kind < 0.76) return deeplyNestedJson(rng, randInt(rng, 100, 30_000));
  if (kind < 0.82) return Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]);
  if (kind < 0.88) return JSON.stringify({ name: 'x'.repeat(randInt(rng, 1_000, 80_000)), window_minutes: 5 });
  if (kind < 0.94) return pick(rng, ['', ' ', 'null', 'undefined', '{', '}', '[]', 'name=x', '\u0000', '{"name":"a"}{"name":"b"}', "{'name': 'x'}", '{"name":"x",}']);
  return hostileString(rng);
};

/**
 * The request line as the server receives it from `inject`, which runs the URL through WHATWG URL
 * parsing (`..` resolved, some characters escaped): the oracle and a replay then see the same URL.
 * A path starting with `//` would be read as a host name, so its second slash is escaped.
 */
const asInjected = (url: string): string => {
  const parsed = new URL(url.startsWith('//') ? `/%2F${url.slice(2)}` : url, 'http://localhost');
  return `${parsed.pathname}${parsed.search}`;
};

/** One random request: mostly a real route and method, sometimes anything. */
export const randomRequest = (rng: Rng): FuzzRequest => {
  const route = pick(rng, ROUTES);
  const method = chance(rng, 0.8) ? route.method : pick(rng, METHODS);
  const path = route.path.replace(/:\w+/g, () => urlPart(rng, paramValue(rng)));
  const headers: Record<string, string> = { host: pick(rng, ['127.0.0.1:7421', '127.0.0.1:7421', 'localhost:7421', '[::1]:7421']) };
  if (chance(rng, 0.03)) headers.host = pick(rng, ['evil.example', 'evil.example:7421', '127.0.0.1.evil.example', '127.0.0.1:7421:80', '[::1']);
  const auth = authorization(rng);
  if (auth !== undefined) headers.authorization = auth;
  if (chance(rng, 0.1)) headers.origin = pick(rng, ['http://127.0.0.1:7421', 'http://evil.example', 'null', 'not a url']);
  if (chance(rng, 0.1)) headers['sec-fetch-site'] = pick(rng, ['same-origin', 'cross-site', 'same-site', 'none', 'bogus']);
  const withBody = method !== 'GET' && method !== 'HEAD' ? chance(rng, 0.9) : chance(rng, 0.05);
  const url = asInjected(`${path}${queryString(rng)}`);
  if (!withBody) return { method, url, headers };
  if (chance(rng, 0.85)) headers['content-type'] = chance(rng, 0.7) ? 'application/json' : chance(rng, 0.95) ? pick(rng, CONTENT_TYPES) : `text/xml; ${'p=1; '.repeat(2_000)}`;
  return { method, url, headers, payload: body(rng, route) };
};
