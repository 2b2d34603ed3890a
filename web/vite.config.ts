import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';
import { AGENT_COLOUR, AGENT_LOOKS } from '../src/sources/agents.js';
import { agentCss } from './src/lib/agent-css.js';
import { FAVICON_LABELS, faviconFile, faviconSvg } from './src/lib/badge.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** favicon-N.svg: the waiting count in the tab, as static files (see src/lib/badge.ts). */
const favicons = (): Plugin => ({
  name: 'agentwatch-favicons',
  generateBundle() {
    for (const label of FAVICON_LABELS) this.emitFile({ type: 'asset', fileName: faviconFile(label), source: faviconSvg(label) });
  },
  configureServer(server) {
    server.middlewares.use((request, response, next) => {
      const match = /\/favicon-(\d|9plus)\.svg$/.exec(request.url ?? '');
      if (!match?.[1]) return next();
      response.setHeader('content-type', 'image/svg+xml');
      response.end(faviconSvg(match[1] === '9plus' ? '9+' : match[1]));
    });
  },
});

const AGENTS_MODULE = 'virtual:agentwatch-agents';
const AGENTS_CSS = 'virtual:agentwatch-agents.css';
// Not a \0 id: vite's CSS pipeline takes a module by its .css name.
const AGENTS_CSS_ID = '/__agentwatch-agents.css';

/** The agents' labels and glyphs (see src/lib/agents.ts) and colours, from the agent registry. */
const agents = (): Plugin => ({
  name: 'agentwatch-agents',
  resolveId: (id) => (id === AGENTS_MODULE ? `\0${AGENTS_MODULE}` : id === AGENTS_CSS ? AGENTS_CSS_ID : undefined),
  load: (id) => (id === `\0${AGENTS_MODULE}` ? `export default ${JSON.stringify(AGENT_LOOKS)};` : id === AGENTS_CSS_ID ? agentCss(AGENT_COLOUR) : undefined),
});

/**
 * The dashboard build: web/ -> dist/gui/ (index.html + hashed assets), served by the agentwatch
 * server at `/`. Everything is bundled: no CDN, no network at run time. `npm run dev:web` serves
 * it with hot reload and forwards /api to a running `agentwatch --api` (AGENTWATCH_URL).
 */
export default defineConfig({
  root: here,
  // Relative asset URLs: the page works wherever the server mounts it.
  base: './',
  plugins: [svelte({ compilerOptions: { runes: true } }), favicons(), agents()],
  build: {
    outDir: path.join(here, '..', 'dist', 'gui'),
    emptyOutDir: true,
    target: 'es2022',
    // Module preload needs no polyfill in the browsers that run this, and an inline one would clash with the CSP.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: { '/api': { target: process.env.AGENTWATCH_URL ?? 'http://127.0.0.1:7421', changeOrigin: true } },
  },
  logLevel: 'warn',
});
