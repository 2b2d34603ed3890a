import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageRoot } from '../../../util/package-json.js';
import { clip } from '../json-body.js';

/**
 * The dashboard's static files (`dist/gui/`, built by `npm run build`), at `/`: public (the page
 * holds no data; it reads the token from its URL fragment and calls the API with it), offline,
 * same-origin only (a CSP allowing nothing from elsewhere). Hashed assets are cached for good;
 * the page itself is revalidated on every load so a rebuild shows at once.
 */

/** Where the built dashboard is, relative to the installed package (never the working directory). */
export const defaultGuiDir = (): string => path.join(packageRoot(), 'dist', 'gui');

const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Svelte sets style attributes; styles cannot run code.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names built assets `name-<hash>.ext` (8+ base64url characters): their content never changes. */
export const isHashedAsset = (relative: string): boolean => /^assets\/.+[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/i.test(relative);

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentwatch: dashboard not built</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#ddd;background:#16181d}code{background:#262a33;padding:.1rem .3rem;border-radius:3px}a{color:#8cb4ff}</style>
</head><body>
<h1>The dashboard is not built</h1>
<p>This agentwatch has no <code>dist/gui/</code> folder. In a clone of the repository, run <code>npm run build</code>, then reload this page.</p>
<p>The API is running: try the <a href="/api">API playground</a>.</p>
</body></html>
`;

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const isFile = (file: string): boolean => {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
};

export const registerStaticRoutes = (app: FastifyInstance, options: { readonly guiDir?: string } = {}): void => {
  const root = path.resolve(options.guiDir ?? defaultGuiDir());

  // Files are sent by @fastify/static (content type, HEAD, ETag); which path may be asked for,
  // and the answer when it is missing, stay ours. Its own cache header is replaced by ours.
  void app.register(fastifyStatic, {
    serve: false,
    cacheControl: false,
    dotfiles: 'ignore',
    setHeaders: (response, file) => {
      const relative = path.relative(root, file).split(path.sep).join('/');
      response.setHeader('cache-control', isHashedAsset(relative) ? 'public, max-age=31536000, immutable' : 'no-cache');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    },
  });

  /** Sends `relative` (already checked to stay inside root): the file, the not-built page, or a 404. */
  const send = (reply: FastifyReply, relative: string): FastifyReply => {
    if (relative === 'index.html' && !existsSync(path.join(root, relative))) {
      const built = existsSync(root);
      return reply
        .headers(SECURITY_HEADERS)
        .code(503)
        .type('text/html; charset=utf-8')
        .send(built ? NOT_BUILT_PAGE.replace('has no <code>dist/gui/</code> folder', `has no <code>index.html</code> in ${root}`) : NOT_BUILT_PAGE);
    }
    // A missing file (or a folder, or a name too long to exist) is said by name, as every refused request is.
    if (!isFile(path.join(root, relative))) return reply.code(404).send({ error: `no file /${clip(relative)}` });
    return reply.sendFile(relative, root);
  };

  /** A request path inside root without dotfiles, or undefined (never a path outside the folder). */
  const inside = (requested: string): string | undefined => {
    // No file name holds a NUL, and the file sender refuses one with a bare "Bad Request".
    if (requested.includes('\0')) return undefined;
    const relative = path.posix.normalize(requested).replace(/^\/+/, '');
    if (relative === '' || relative.startsWith('..') || relative.split('/').some((part) => part.startsWith('.'))) return undefined;
    const full = path.resolve(root, relative);
    return full.startsWith(`${root}${path.sep}`) ? relative : undefined;
  };

  const publicRoute = {
    config: { access: 'public' as const },
    // The library's type table still says application/javascript; text/javascript is the standard one.
    onSend: (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void => {
      if (String(reply.getHeader('content-type')).startsWith('application/javascript')) reply.header('content-type', 'text/javascript; charset=utf-8');
      done(null, payload);
    },
  };
  app.get('/', publicRoute, async (_request, reply) => send(reply, 'index.html'));
  app.get('/index.html', publicRoute, async (_request, reply) => send(reply, 'index.html'));
  app.get('/assets/*', publicRoute, async (request, reply) => {
    const relative = inside(`assets/${(request.params as { '*': string })['*']}`);
    return relative ? send(reply, relative) : reply.code(404).send({ error: 'no such file' });
  });
  // Top-level files of the build (favicon.svg, robots.txt, a manifest): one path segment only.
  app.get('/:file', publicRoute, async (request, reply) => {
    const relative = inside((request.params as { file: string }).file);
    return relative && relative !== 'index.html' ? send(reply, relative) : reply.code(404).send({ error: 'no such file' });
  });
};
