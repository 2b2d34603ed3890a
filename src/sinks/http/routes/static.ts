import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

export const DASHBOARD_CSP = [
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

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export const contentTypeOf = (file: string): string => TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';

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

const securityHeaders = (reply: FastifyReply): FastifyReply =>
  reply.header('content-security-policy', DASHBOARD_CSP).header('referrer-policy', 'no-referrer').header('x-frame-options', 'DENY');

export const registerStaticRoutes = (app: FastifyInstance, options: { readonly guiDir?: string } = {}): void => {
  const root = path.resolve(options.guiDir ?? defaultGuiDir());

  /** Sends `relative` (already checked to stay inside root) or a 404 / the not-built page. */
  const send = async (reply: FastifyReply, relative: string): Promise<FastifyReply> => {
    const file = path.join(root, relative);
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch {
      if (relative === 'index.html') {
        const built = existsSync(root);
        return securityHeaders(reply)
          .code(503)
          .type('text/html; charset=utf-8')
          .send(built ? NOT_BUILT_PAGE.replace('has no <code>dist/gui/</code> folder', `has no <code>index.html</code> in ${root}`) : NOT_BUILT_PAGE);
      }
      return reply.code(404).send({ error: `no file /${clip(relative)}` });
    }
    reply.header('cache-control', isHashedAsset(relative) ? 'public, max-age=31536000, immutable' : 'no-cache');
    return securityHeaders(reply).type(contentTypeOf(file)).send(body);
  };

  /** A request path inside root without dotfiles, or undefined (never a path outside the folder). */
  const inside = (requested: string): string | undefined => {
    const relative = path.posix.normalize(requested).replace(/^\/+/, '');
    if (relative === '' || relative.startsWith('..') || relative.split('/').some((part) => part.startsWith('.'))) return undefined;
    const full = path.resolve(root, relative);
    return full.startsWith(`${root}${path.sep}`) ? relative : undefined;
  };

  const publicRoute = { config: { access: 'public' as const } };
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
