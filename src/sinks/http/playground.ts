import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * `GET /api`: a small page to try the API from a browser. It derives the token locally with Web
 * Crypto (the passphrase never leaves the page), then calls the routes and follows /api/events.
 * Plain HTML and JS, no framework; all output goes through textContent, never innerHTML.
 */

const SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const out = $('out');
let token = '';
const show = (label, value) => { out.textContent = label + '\n' + (typeof value === 'string' ? value : JSON.stringify(value, null, 2)); };
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

async function derive(passphrase) {
  const auth = await (await fetch('/api/auth')).json();
  if (!window.crypto || !crypto.subtle) throw new Error('Web Crypto needs a secure origin (localhost or https): paste the token instead');
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(passphrase.trim()), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: auth.hash, salt: enc.encode(auth.salt), iterations: auth.iterations }, key, auth.key_length * 8);
  return b64url(bits);
}

async function call(method, path, body) {
  const init = { method, headers: { Authorization: 'Bearer ' + token } };
  if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
  const res = await fetch(path, init);
  const text = await res.text();
  let value = text;
  try { value = JSON.parse(text); } catch {}
  show(method + ' ' + path + ' -> ' + res.status, value);
}

const guard = (fn) => async (event) => {
  event.preventDefault();
  try { await fn(); } catch (error) { show('error', String(error && error.message || error)); }
};
const need = () => { if (!token) throw new Error('derive or paste a token first'); };
const query = () => {
  const params = new URLSearchParams();
  for (const name of ['search', 'filter', 'dir']) { const v = $(name).value; if (v) params.set(name, v); }
  const q = params.toString();
  return '/api/sessions' + (q ? '?' + q : '');
};
const sessionPath = () => '/api/sessions/' + encodeURIComponent($('sid').value.trim());

$('login').addEventListener('submit', guard(async () => {
  const pasted = $('token').value.trim();
  token = pasted || await derive($('passphrase').value);
  $('passphrase').value = '';
  $('state').textContent = 'token ready (' + token.slice(0, 4) + '...)';
}));
$('list').addEventListener('click', guard(async () => { need(); await call('GET', query()); }));
$('stats').addEventListener('click', guard(async () => { need(); await call('GET', '/api/stats'); }));
$('config').addEventListener('click', guard(async () => { need(); await call('GET', '/api/config'); }));
$('detail').addEventListener('click', guard(async () => { need(); await call('GET', sessionPath()); }));
$('rename').addEventListener('click', guard(async () => { need(); await call('PUT', sessionPath() + '/name', { name: $('name').value }); }));
$('reset').addEventListener('click', guard(async () => { need(); await call('DELETE', sessionPath() + '/name'); }));
let source;
let following = false;
let retry;
let backoff = 1000;
// An EventSource retries a dropped connection by itself, but gives up for good after an HTTP
// error (429, 401, 5xx): then follow again with backoff (1 s, doubling to 30 s).
const follow = () => {
  source = new EventSource('/api/events?token=' + encodeURIComponent(token));
  source.addEventListener('update', (e) => {
    backoff = 1000;
    show('update at ' + new Date().toLocaleTimeString(), JSON.parse(e.data));
  });
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) { show('events', 'connection lost; the browser retries'); return; }
    source.close();
    show('events', 'stream refused; reconnecting in ' + backoff / 1000 + ' s');
    retry = setTimeout(() => { if (following) follow(); }, backoff);
    backoff = Math.min(backoff * 2, 30000);
  };
};
$('events').addEventListener('click', guard(async () => {
  need();
  if (following) { following = false; clearTimeout(retry); source.close(); $('events').textContent = 'Follow /api/events'; return; }
  following = true;
  backoff = 1000;
  follow();
  $('events').textContent = 'Stop following';
}));
`;

const STYLE = `body{font:14px system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}
fieldset{margin:0 0 1rem;border:1px solid #8884}input{margin:.2rem}pre{background:#8881;padding:1rem;overflow:auto;max-height:60vh}`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentwatch API playground</title>
<style>${STYLE}</style>
</head>
<body>
<h1>agentwatch API playground</h1>
<form id="login"><fieldset><legend>Token</legend>
<input id="passphrase" type="password" placeholder="passphrase" autocomplete="current-password">
or <input id="token" placeholder="token (43 characters)" size="46">
<button>Use</button> <span id="state">no token</span>
</fieldset></form>
<fieldset><legend>Sessions</legend>
<input id="search" placeholder="search"> <input id="filter" placeholder="filter (active, waiting...)"> <input id="dir" placeholder="dir (absolute)">
<button id="list">List</button> <button id="stats">Stats</button> <button id="config">Config</button> <button id="events">Follow /api/events</button><br>
<input id="sid" placeholder="session id" size="40"> <button id="detail">Detail</button>
<input id="name" placeholder="new name"> <button id="rename">Rename</button> <button id="reset">Reset name</button>
</fieldset>
<pre id="out"></pre>
<script>${SCRIPT}</script>
</body>
</html>
`;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

/** Only this page's own inline script and style may run; it talks to its own origin only. */
const CSP = [
  "default-src 'none'",
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  `style-src 'sha256-${sha256(STYLE)}'`,
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const registerPlayground = (app: FastifyInstance): void => {
  app.get('/api', { config: { access: 'public' } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(HTML),
  );
};
