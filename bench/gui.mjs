/**
 * The web dashboard with 1,000 sessions in headless Chromium: first paint (navigation
 * to the first frame showing cards, and to the frame showing all of them) and one live update (the `patch` frame carrying a changed
 * session arriving in the page -> the frame showing its new activity), against anchors measured
 * in the same run and browser: the same 1,000 cards as a static page (same markup and CSS, no
 * script), an empty animation frame, and a full re-render of the grid's markup.
 *
 *   node bench/gui.mjs [--sessions N] [--updates U] [--runs R] [--corpus DIR]
 *
 * `--corpus DIR` uses the HOME of an existing corpus (bench/corpus.mjs) with a 30-day window;
 * without it, N claude sessions from the last day are written to a temp HOME.
 */
/* global window, document, performance, requestAnimationFrame, Element, MutationObserver, PerformanceObserver, Response, TextDecoder, TransformStream -- page.evaluate and the init script run in the browser */
import { spawn } from 'node:child_process';
import { pbkdf2Sync, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { arg, median, percentile, saveResult, sleep } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const sessions = arg('sessions', 1000);
const updates = arg('updates', 10);
const runs = arg('runs', 3);
const corpusAt = process.argv.indexOf('--corpus');
const profileAt = process.argv.indexOf('--profile');
/** `--profile FILE`: a CPU profile of the first load and the scroll, summarised by `bench/profile.mjs`. */
const profileFile = profileAt === -1 ? undefined : path.resolve(process.argv[profileAt + 1]);
const corpusHome = corpusAt === -1 ? undefined : path.resolve(process.argv[corpusAt + 1], 'home');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((file) => existsSync(file));
if (!CHROMIUM) {
  console.log('no Chromium at /usr/bin/chromium: bench/gui.mjs skipped');
  console.log(JSON.stringify({ name: 'gui', figures: {}, anchors: {}, skipped: 'no chromium' }));
  process.exit(0);
}
if (!existsSync(path.join(dist, 'gui', 'index.html'))) throw new Error('dist/gui is missing: run npm run build');

const root = mkdtempSync(path.join(tmpdir(), 'agentwatch-bench-gui-'));
const home = corpusHome ?? path.join(root, 'home');
const env = {
  HOME: home,
  XDG_CONFIG_HOME: path.join(root, 'config'),
  XDG_CACHE_HOME: path.join(root, 'cache'),
  XDG_DATA_HOME: corpusHome ? path.join(home, '.local', 'share') : path.join(root, 'data'),
  PATH: process.env.PATH,
  NO_COLOR: '1',
  AGENTWATCH_API_PASSPHRASE: 'gui benchmark passphrase',
};
const salt = 'gui-bench-salt';
mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), JSON.stringify({ window_minutes: corpusHome ? 43_200 : 1440, api_salt: salt, card_density: 'live' }));
const token = pbkdf2Sync(env.AGENTWATCH_API_PASSPHRASE, salt, 600000, 32, 'sha256').toString('base64url');

/** N claude sessions of the last day: a prompt and an answer each, spread over 40 projects and 6 branches. */
const writeSessions = () => {
  const now = Date.now();
  const files = [];
  for (let i = 0; i < sessions; i += 1) {
    const cwd = `/bench/work/project-${i % 40}`;
    const id = randomUUID();
    const at = now - 60_000 - Math.floor((i / sessions) * 20 * 3_600_000);
    const base = { cwd, sessionId: id, version: '2.0.31', gitBranch: `branch-${i % 6}`, isSidechain: false, userType: 'external' };
    const lines = [
      { ...base, type: 'user', message: { role: 'user', content: `Task ${i}: make the parser handle leap years` }, timestamp: new Date(at - 30_000).toISOString() },
      {
        ...base,
        type: 'assistant',
        message: { id: `msg_${i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: `Done with task ${i}; the tests pass.` }], usage: { input_tokens: 900, output_tokens: 200, cache_creation_input_tokens: 0, cache_read_input_tokens: 4000 } },
        timestamp: new Date(at).toISOString(),
      },
    ];
    const file = path.join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${id}.jsonl`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    files.push({ file, id, base });
  }
  return files;
};

/** Transcripts of an existing corpus that can take an append (claude files). */
const corpusFiles = () => {
  const projects = path.join(home, '.claude', 'projects');
  return readdirSync(projects)
    .flatMap((dir) => readdirSync(path.join(projects, dir)).filter((name) => name.endsWith('.jsonl')).map((name) => ({ file: path.join(projects, dir, name), id: name.replace(/\.jsonl$/, '') })))
    .map((entry) => {
      const first = JSON.parse(readFileSync(entry.file, 'utf8').split('\n')[0] ?? '{}');
      return { ...entry, base: { cwd: first.cwd, sessionId: entry.id, version: '2.0.31', gitBranch: 'main', isSidechain: false, userType: 'external' } };
    });
};

const files = corpusHome ? corpusFiles() : writeSessions();
const child = spawn(process.execPath, [path.join(dist, 'cli.js'), '--gui', '--no-open', '--host', '127.0.0.1:0', '--agent', 'claude'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));

/**
 * Injected before the page's scripts: the time every chunk of the event stream arrives (fetch
 * wrapped), the frame after all cards are in the DOM, and the frame after a card's activity
 * text changes.
 */
const probe = (expected) => {
  const marks = { chunks: [], cardsFrame: 0, allCards: 0, firstFrame: 0, changes: [] };
  window.__bench = marks;
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await fetch0(...args);
    const url = String(args[0]);
    if (!url.includes('api/events') || !response.body) return response;
    const decoder = new TextDecoder();
    const body = response.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          marks.chunks.push({ at: performance.now(), text: decoder.decode(chunk, { stream: true }).slice(0, 4000) });
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  // When the first card is painted: Element Timing on its name (marked before it is ever painted).
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.identifier === 'first-card' && marks.cardsFrame === 0) marks.cardsFrame = entry.renderTime || entry.loadTime;
  }).observe({ type: 'element', buffered: true });
  let cardsSeen = false;
  new MutationObserver((records) => {
    const first = cardsSeen ? null : document.querySelector('[data-session-id] .name button');
    if (first) {
      cardsSeen = true;
      first.setAttribute('elementtiming', 'first-card');
    }
    // Every listed session in the page's grid: as cards, or (a virtualized grid) in its model.
    const listedInGrid = Math.max(document.querySelectorAll('[data-session-id]').length, Number(document.querySelector('[data-cards]')?.getAttribute('data-cards') ?? 0));
    if (marks.allCards === 0 && listedInGrid >= expected) {
      marks.allCards = performance.now();
      requestAnimationFrame(() => setTimeout(() => (marks.firstFrame = performance.now())));
    }
    for (const record of records) {
      const node = record.target.nodeType === 3 ? record.target.parentElement : record.target;
      if (!(node instanceof Element) || !node.closest('.activity-text')) continue;
      const card = node.closest('[data-session-id]');
      const at = performance.now();
      requestAnimationFrame(() => setTimeout(() => marks.changes.push({ id: card?.getAttribute('data-session-id'), text: node.textContent, at, frame: performance.now(), wall: Date.now() })));
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

/** Frames per second over 120 animation frames, scrolling `selector` by 150 px each (none: an empty frame loop). */
const framesPerSecond = (selector) =>
  new Promise((resolve) => {
    const scroller = selector ? document.querySelector(selector) : null;
    let frames = 0;
    const start = performance.now();
    const step = () => {
      if (scroller) scroller.scrollTop += 150;
      frames += 1;
      if (frames < 120) requestAnimationFrame(step);
      else resolve((frames * 1000) / (performance.now() - start));
    };
    requestAnimationFrame(step);
  });

/** The static anchor: the dashboard's own markup and CSS for the same cards, without any script. */
const staticServer = async (markup, css) => {
  const server = createServer((request, response) => {
    if (request.url === '/style.css') return response.writeHead(200, { 'content-type': 'text/css' }).end(css);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="/style.css"></head><body><div id="app">${markup}</div></body></html>`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
};

const round = (value) => Math.round(value * 10) / 10;

try {
  let base;
  while (!(base = /dashboard at (http:\/\/[^\s/]+)/.exec(stderr)?.[1])) {
    if (child.exitCode !== null) throw new Error(`agentwatch exited: ${stderr}`);
    await sleep(50);
  }
  let listed = 0;
  for (;;) {
    const stats = await fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json()).catch(() => ({}));
    listed = stats.total_sessions ?? 0;
    if (stats.ready && (corpusHome || listed >= sessions)) break;
    await sleep(100);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const firstPaint = [];
  const allCards = [];
  const fcp = [];
  const staticPaint = [];
  const domNodes = [];
  const heapUsed = [];
  const scrollFps = [];
  const afterSnapshot = [];
  const phases = [];
  const emptyLoopFps = [];
  const scrollDetails = [];
  const rendererRss = [];
  const browserCdp = await browser.newBrowserCDPSession();
  /** The resident memory of the largest renderer process (the page's), from /proc. */
  const rendererMib = async () => {
    const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo');
    const sizes = await Promise.all(
      processInfo
        .filter((info) => info.type === 'renderer')
        .map((info) => readFile(`/proc/${info.id}/status`, 'utf8').then((text) => Number(/VmRSS:\s+(\d+) kB/.exec(text)?.[1] ?? 0) / 1024).catch(() => 0)),
    );
    return Math.max(0, ...sizes);
  };
  let markup = '';
  let scrollMarkup = '';
  const staticScrollFps = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(probe, listed);
      const profiler = profileFile && run === 0 ? await context.newCDPSession(page) : undefined;
      if (profiler) {
        await profiler.send('Profiler.enable');
        await profiler.send('Profiler.start');
      }
      await page.goto(`${base}/#token=${token}`);
      await page.waitForFunction(() => window.__bench.firstFrame > 0 && window.__bench.cardsFrame > 0, undefined, { timeout: 60_000 });
      const marks = await page.evaluate(() => ({
        cards: window.__bench.cardsFrame,
        all: window.__bench.firstFrame,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
        snapshot: window.__bench.chunks.find((chunk) => chunk.text.includes('event: snapshot'))?.at ?? 0,
        received: performance.getEntriesByName('agentwatch:listing-received')[0]?.startTime ?? 0,
        applied: performance.getEntriesByName('agentwatch:listing-applied')[0]?.startTime ?? 0,
      }));
      firstPaint.push(marks.cards);
      // The first cards painted after the snapshot's first bytes arrived.
      if (marks.snapshot > 0) afterSnapshot.push(marks.cards - marks.snapshot);
      // Where that time goes: the whole listing arriving, parsing and applying it, the first cards' frame.
      if (marks.snapshot > 0 && marks.received > 0 && marks.applied > 0) phases.push({ arriving: marks.received - marks.snapshot, applying: marks.applied - marks.received, drawing: marks.cards - marks.applied });
      allCards.push(marks.all);
      fcp.push(marks.fcp);
      // The page's weight once everything is listed: DOM nodes and the JS heap after a collection.
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      domNodes.push(metrics.find((m) => m.name === 'Nodes')?.value ?? 0);
      heapUsed.push((metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0) / 2 ** 20);
      rendererRss.push(await rendererMib());
      // Scrolling: 120 frames, 150 px each, through the card list.
      let detailRequests = 0;
      const countDetail = (request) => (detailRequests += /\/api\/sessions\/[^/?]+(\?|$)/.test(request.url()) ? 1 : 0);
      page.on('request', countDetail);
      scrollFps.push(await page.evaluate(framesPerSecond, 'main'));
      await sleep(500);
      page.off('request', countDetail);
      scrollDetails.push(detailRequests);
      if (profiler) writeFileSync(profileFile, JSON.stringify((await profiler.send('Profiler.stop')).profile));
      emptyLoopFps.push(await page.evaluate(framesPerSecond, null));
      if (run === 0) markup = await page.evaluate(() => document.getElementById('app').innerHTML);
      // The scrolling anchor's markup: the page as it is, its grid holding the built cards 40 times over, all static.
      if (run === 0)
        scrollMarkup = await page.evaluate(() => {
          const app = document.getElementById('app').cloneNode(true);
          const grid = app.querySelector('[role="list"]');
          const box = app.querySelector('[data-cards]');
          if (!grid || !box) return '';
          grid.style.position = 'static';
          grid.style.top = '';
          grid.innerHTML = grid.innerHTML.repeat(40);
          box.style.height = 'auto';
          return app.innerHTML;
        });
      await context.close();
    }

    // Anchor 1: the same cards, static.
    const cssFile = readdirSync(path.join(dist, 'gui', 'assets')).find((name) => name.endsWith('.css'));
    const anchorServer = await staticServer(markup, readFileSync(path.join(dist, 'gui', 'assets', cssFile), 'utf8'));
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(anchorServer.url);
      staticPaint.push(await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()))))));
      await context.close();
    }
    await anchorServer.close();
    // Anchor 1b: scrolling that static page the same way (layout and raster of cards, no script).
    const scrollServer = await staticServer(scrollMarkup, readFileSync(path.join(dist, 'gui', 'assets', cssFile), 'utf8'));
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(scrollServer.url);
      staticScrollFps.push(await page.evaluate(framesPerSecond, 'main'));
      await context.close();
    }
    await scrollServer.close();

    // Live updates: append a tool call to one transcript at a time; measure the patch's arrival -> the frame showing it.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(probe, listed);
    await page.goto(`${base}/#token=${token}`);
    await page.waitForFunction(() => window.__bench.firstFrame > 0, undefined, { timeout: 60_000 });
    await sleep(1_500);
    const toFrame = [];
    const endToEnd = [];
    // Sessions whose cards are in the page (a virtualized grid builds only those on screen).
    const built = new Set(await page.evaluate(() => [...document.querySelectorAll('[data-session-id]')].map((card) => card.getAttribute('data-session-id'))));
    const targets = files.filter((file) => built.has(file.id));
    for (let i = 0; i < updates; i += 1) {
      const target = targets[(i * 37) % targets.length];
      await page.evaluate(() => (window.__bench.changes = []));
      const wall = Date.now();
      const record = {
        ...target.base,
        type: 'assistant',
        message: { id: `msg_bench_${i}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: `toolu_bench_${i}`, name: 'Write', input: { file_path: `${target.base.cwd}/out.txt`, content: 'x' } }], usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
        timestamp: new Date().toISOString(),
      };
      appendFileSync(target.file, `${JSON.stringify(record)}\n`);
      const change = await page.waitForFunction((id) => window.__bench.changes.find((c) => c.id === id && c.text === 'writing'), target.id, { timeout: 15_000 }).then((handle) => handle.jsonValue());
      const arrived = await page.evaluate(
        ({ id, at }) => window.__bench.chunks.filter((chunk) => chunk.at <= at && chunk.text.includes('event: patch') && chunk.text.includes(id)).at(-1)?.at,
        { id: target.id, at: change.at },
      );
      if (arrived !== undefined) toFrame.push(change.frame - arrived);
      endToEnd.push(change.wall - wall);
      await sleep(400);
    }

    // Anchors 2 and 3: an empty frame, and rebuilding the whole grid's markup (what a full re-render per event costs).
    const emptyFrame = [];
    const fullRender = [];
    for (let run = 0; run < 5; run += 1) {
      emptyFrame.push(await page.evaluate(() => new Promise((resolve) => { const t = performance.now(); requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t))); })));
      fullRender.push(
        await page.evaluate(
          () =>
            new Promise((resolve) => {
              const grid = document.querySelector('[role="list"]');
              const html = grid.innerHTML;
              const t = performance.now();
              grid.innerHTML = html;
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t)));
            }),
        ),
      );
    }
    await context.close();

    const figures = {
      sessions: listed,
      first_paint_ms: round(median(firstPaint)),
      all_cards_ms: round(median(allCards)),
      first_contentful_paint_ms: round(median(fcp)),
      first_cards_after_snapshot_ms: round(median(afterSnapshot)),
      renderer_rss_mib: round(median(rendererRss)),
      snapshot_arriving_ms: round(median(phases.map((phase) => phase.arriving))),
      snapshot_applying_ms: round(median(phases.map((phase) => phase.applying))),
      first_cards_drawing_ms: round(median(phases.map((phase) => phase.drawing))),
      patch_to_frame_ms_p50: round(median(toFrame)),
      patch_to_frame_ms_p95: round(percentile(toFrame, 0.95)),
      append_to_frame_ms_p50: round(median(endToEnd)),
      updates_seen: toFrame.length,
      dom_nodes: Math.round(median(domNodes)),
      js_heap_used_mib: round(median(heapUsed)),
      scroll_fps: round(median(scrollFps)),
      scroll_detail_requests: Math.round(median(scrollDetails)),
    };
    const anchors = {
      static_page_paint_ms: round(median(staticPaint)),
      empty_frame_ms: round(median(emptyFrame)),
      full_grid_rerender_ms: round(median(fullRender)),
      first_paint_vs_static: round(figures.first_paint_ms / median(staticPaint)),
      all_cards_vs_static: round(figures.all_cards_ms / median(staticPaint)),
      empty_frame_loop_fps: round(median(emptyLoopFps)),
      static_page_scroll_fps: round(median(staticScrollFps)),
      scroll_vs_static: round(figures.scroll_fps / median(staticScrollFps)),
    };
    console.log(`dashboard with ${listed} sessions in headless Chromium (${runs} loads, ${updates} updates)`);
    console.log(`  first paint with cards ${figures.first_paint_ms} ms (${anchors.first_paint_vs_static}x), all ${listed} cards ${figures.all_cards_ms} ms (${anchors.all_cards_vs_static}x), FCP ${figures.first_contentful_paint_ms} ms`);
    console.log(`    anchor: the same ${listed} cards as a static page (same markup and CSS, no script) ${anchors.static_page_paint_ms} ms`);
    console.log(`  first cards ${figures.first_cards_after_snapshot_ms} ms after the snapshot's first bytes (arriving ${figures.snapshot_arriving_ms}, parsed and applied ${figures.snapshot_applying_ms}, drawn ${figures.first_cards_drawing_ms})`);
    console.log(`  ${figures.dom_nodes} DOM nodes, JS heap ${figures.js_heap_used_mib} MiB after a collection, renderer ${figures.renderer_rss_mib} MiB resident, scrolling ${figures.scroll_fps} fps (${figures.scroll_detail_requests} detail requests on the way)`);
    console.log(`    anchors: an empty frame loop ${anchors.empty_frame_loop_fps} fps; the cards as a static page (built 40 times over), scrolled the same way, ${anchors.static_page_scroll_fps} fps (${anchors.scroll_vs_static}x)`);
    console.log(`  patch -> frame p50 ${figures.patch_to_frame_ms_p50} ms, p95 ${figures.patch_to_frame_ms_p95} ms (empty frame ${anchors.empty_frame_ms} ms; full grid re-render ${anchors.full_grid_rerender_ms} ms)`);
    console.log(`  transcript append -> frame p50 ${figures.append_to_frame_ms_p50} ms (includes the watcher and the server's 250 ms SSE throttle)`);
    console.log(`  saved to ${saveResult('gui', { figures, anchors })}`);
    console.log(JSON.stringify({ name: 'gui', figures, anchors }));
  } finally {
    await browser.close();
  }
} finally {
  child.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
}
