import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultGuiDir, isHashedAsset } from '../../../src/sinks/http/routes/static.js';
import { makeDashboard, type DashboardHarness } from './dashboard-fixture.js';

let harness: DashboardHarness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A built dashboard in its own temp folder (gui/ inside it). */
const tempGui = async (): Promise<string> => {
  const root = await mkdtemp(path.join(tmpdir(), 'agentwatch-gui-'));
  dirs.push(root);
  const gui = path.join(root, 'gui');
  await writeBuild(gui);
  return gui;
};

/** A small build of the dashboard as Vite lays it out. */
const writeBuild = async (dir: string): Promise<void> => {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>agentwatch</title><script type="module" src="/assets/index-Bx8k2LmQ.js"></script>');
  await writeFile(path.join(dir, 'assets', 'index-Bx8k2LmQ.js'), 'console.log("dashboard")');
  await writeFile(path.join(dir, 'assets', 'index-D4fGh7Jk.css'), 'body{margin:0}');
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dir, 'assets', 'inter-Qw3rTy12.woff2'), 'wOF2');
  await writeFile(path.join(dir, 'notes.unknown'), 'data');
  await writeFile(path.join(dir, '.secret'), 'never served');
};

describe('the dashboard at /', () => {
  it('serves index.html without a token, revalidated, under a same-origin CSP', async () => {
    const gui = await tempGui();
    harness = await makeDashboard({ guiDir: gui });
    for (const url of ['/', '/index.html']) {
      const res = await harness.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<title>agentwatch</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self';/);
      expect(res.headers['content-security-policy']).toMatch(/connect-src 'self'/);
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    const head = await harness.app.inject({ method: 'HEAD', url: '/' });
    expect(head.statusCode).toBe(200);
  });

  it('serves hashed assets with their content type, cached for good; top-level files revalidated', async () => {
    const gui = await tempGui();
    harness = await makeDashboard({ guiDir: gui });
    const js = await harness.app.inject({ url: '/assets/index-Bx8k2LmQ.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toBe('console.log("dashboard")');
    const css = await harness.app.inject({ url: '/assets/index-D4fGh7Jk.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const icon = await harness.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await harness.app.inject({ url: '/assets/inter-Qw3rTy12.woff2' })).headers['content-type']).toBe('font/woff2');
    expect((await harness.app.inject({ url: '/notes.unknown' })).headers['content-type']).toBe('application/octet-stream');
  });

  it('never serves dotfiles, paths outside the folder or missing files (404 JSON)', async () => {
    const gui = await tempGui();
    await writeFile(path.join(gui, '..', 'outside.txt'), 'OUTSIDE-CONTENT');
    harness = await makeDashboard({ guiDir: gui });
    for (const url of ['/.secret', '/assets/../.secret', '/assets/..%2f..%2foutside.txt', '/assets/%2e%2e/%2e%2e/outside.txt', '/assets/nope.js', '/nope.png']) {
      const res = await harness.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('OUTSIDE-CONTENT');
      expect(res.body).not.toContain('never served');
    }
  });

  it('says clearly when the dashboard is not built, linking the API playground', async () => {
    harness = await makeDashboard();
    const res = await harness.app.inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('The dashboard is not built');
    expect(res.body).toContain('npm run build');
    expect(res.body).toContain('href="/api"');
  });

  it('keeps the API rules around it: /api/* needs the token, a foreign Host is refused', async () => {
    harness = await makeDashboard();
    expect((await harness.app.inject({ url: '/api/nope' })).statusCode).toBe(401);
    expect((await harness.app.inject({ url: '/', headers: { host: 'evil.example:7421' } })).statusCode).toBe(403);
  });
});

describe('static helpers', () => {
  it('finds dist/gui beside the package, not in the working directory', () => {
    expect(defaultGuiDir()).toBe(path.join(path.resolve(import.meta.dirname, '../../..'), 'dist', 'gui'));
  });

  it('hashed names', () => {
    expect(isHashedAsset('assets/index-Bx8k2LmQ.js')).toBe(true);
    expect(isHashedAsset('assets/logo.svg')).toBe(false);
    expect(isHashedAsset('favicon-Bx8k2LmQ.svg')).toBe(false);
  });
});
