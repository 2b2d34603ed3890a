// The README's picture of the TUI, made from `agentwatch --demo` in a real terminal: tmux runs
// the built CLI at a fixed size, `capture-pane -e` reads the screen back with its colors, the
// escape codes become HTML spans, and headless Chromium (playwright-core) takes the screenshot.
// Usage: npm run build && node scripts/tui-screenshot.mjs [--width 150] [--height 38] [--out docs/tui.png]
/* eslint-disable no-control-regex -- terminal escape sequences are what this script parses */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const width = Number(arg('width', '150'));
const height = Number(arg('height', '38'));
const out = path.resolve(root, arg('out', 'docs/tui.png'));
const settleMs = Number(arg('settle', '4000'));

/** xterm's 256-color palette as CSS colors. */
const BASE16 = ['#000000', '#cd0000', '#00cd00', '#cdcd00', '#0000ee', '#cd00cd', '#00cdcd', '#e5e5e5', '#7f7f7f', '#ff0000', '#00ff00', '#ffff00', '#5c5cff', '#ff00ff', '#00ffff', '#ffffff'];
const color256 = (n) => {
  if (n < 16) return BASE16[n];
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const level = (x) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${level(Math.floor(i / 36))},${level(Math.floor(i / 6) % 6)},${level(i % 6)})`;
};

const FG = '#d0d0d0';
const BG = '#121212';
const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Text as terminal cells: every non-ASCII character (box drawing, braille spinner, block
 * sparkline, ellipsis) sits in a box one cell wide and one line high, so a glyph taken from a
 * fallback font cannot shift the columns after it, and borders join from line to line.
 */
const cells = (text) => [...text].map((ch) => (ch.charCodeAt(0) < 128 ? escapeHtml(ch) : (block(ch) ?? `<b class="c">${escapeHtml(ch)}</b>`))).join('');

/**
 * A block element (U+2580-U+2590: the sparkline's bars, the prompt's cursor) drawn as a
 * rectangle in the text's color: fonts draw these glyphs wider or taller than a cell, so a
 * sparkline became one solid shape. Other characters are left to the font (undefined).
 */
const block = (ch) => {
  const code = ch.codePointAt(0);
  const rect = (css) => `<b class="c k"><i style="${css}"></i></b>`;
  if (code === 0x2580) return rect('top:0;height:50%;width:100%');
  // A bar leaves the top two pixels of its cell and one on its right, so that the bars of
  // neighbouring rows and columns read as bars, not as one shape.
  if (code >= 0x2581 && code <= 0x2588) return rect(`bottom:0;height:${Math.max(1, Math.round(((code - 0x2580) * 15) / 8))}px;width:calc(100% - 1px)`);
  if (code >= 0x2589 && code <= 0x258f) return rect(`bottom:0;height:100%;width:${((0x2590 - code) * 12.5).toFixed(1)}%`);
  if (code === 0x2590) return rect('bottom:0;left:auto;right:0;height:100%;width:50%');
  return undefined;
};

/** One captured line (SGR escapes and text) as HTML spans. */
const lineToHtml = (line) => {
  let style = {};
  let html = '';
  const parts = line.split(/(\u001b\[[0-9;]*m)/);
  for (const part of parts) {
    const sgr = /^\u001b\[([0-9;]*)m$/.exec(part);
    if (!sgr) {
      if (part === '') continue;
      const fg = style.inverse ? (style.bg ?? BG) : (style.fg ?? FG);
      const bg = style.inverse ? (style.fg ?? FG) : style.bg;
      const css = [`color:${fg}`, bg ? `background:${bg}` : '', style.bold ? 'font-weight:bold' : '', style.dim ? 'opacity:0.6' : '', style.underline ? 'text-decoration:underline' : ''].filter(Boolean).join(';');
      html += `<span style="${css}">${cells(part)}</span>`;
      continue;
    }
    const codes = sgr[1] === '' ? [0] : sgr[1].split(';').map(Number);
    for (let i = 0; i < codes.length; i += 1) {
      const c = codes[i];
      if (c === 0) style = {};
      else if (c === 1) style.bold = true;
      else if (c === 2) style.dim = true;
      else if (c === 4) style.underline = true;
      else if (c === 7) style.inverse = true;
      else if (c === 22) style.bold = style.dim = false;
      else if (c === 24) style.underline = false;
      else if (c === 27) style.inverse = false;
      else if (c === 39) delete style.fg;
      else if (c === 49) delete style.bg;
      else if (c >= 30 && c <= 37) style.fg = BASE16[c - 30];
      else if (c >= 90 && c <= 97) style.fg = BASE16[c - 90 + 8];
      else if (c >= 40 && c <= 47) style.bg = BASE16[c - 40];
      else if (c >= 100 && c <= 107) style.bg = BASE16[c - 100 + 8];
      else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
        style[c === 38 ? 'fg' : 'bg'] = color256(codes[i + 2]);
        i += 2;
      } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
        style[c === 38 ? 'fg' : 'bg'] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
        i += 4;
      }
    }
  }
  return html;
};

const home = mkdtempSync(path.join(tmpdir(), 'agentwatch-screenshot-'));
const socket = `agentwatch-screenshot-${process.pid}`;
const tmux = (...args) => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
let captured;
try {
  const env = [`HOME=${home}`, `XDG_CONFIG_HOME=${home}/.config`, `XDG_CACHE_HOME=${home}/.cache`, 'TERM=xterm-256color', 'LANG=C.UTF-8', 'TZ=UTC', `PATH=${process.env.PATH}`];
  tmux('new-session', '-d', '-s', 'shot', '-x', String(width), '-y', String(height), `env -i ${env.join(' ')} ${process.execPath} ${path.join(root, 'dist/cli.js')} --demo; sleep 60`);
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  captured = tmux('capture-pane', '-p', '-e', '-N', '-t', 'shot');
} finally {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  rmSync(home, { recursive: true, force: true });
}

const rows = captured.replace(/\n$/, '').split('\n');
const page = `<!doctype html><meta charset="utf-8"><style>
  body { margin: 0; background: ${BG}; }
  pre { margin: 0; padding: 14px 16px; font: 14px/17px 'DejaVu Sans Mono', 'Liberation Mono', monospace; color: ${FG}; background: ${BG}; display: inline-block; }
  .c { display: inline-block; width: 1ch; height: 17px; overflow: visible; font-weight: inherit; text-align: center; vertical-align: top; line-height: 17px; transform: scaleY(1.22); }
  .k { position: relative; overflow: hidden; transform: none; }
  .k i { position: absolute; left: 0; background: currentColor; }
</style><pre id="screen">${rows.map(lineToHtml).join('\n')}</pre>`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const tab = await browser.newPage({ deviceScaleFactor: 1 });
  await tab.setContent(page);
  await tab.locator('#screen').screenshot({ path: out });
} finally {
  await browser.close();
}
writeFileSync(out.replace(/\.png$/, '.txt'), `${rows.map((row) => row.replace(/\u001b\[[0-9;]*m/g, '')).join('\n')}\n`);
console.log(`wrote ${path.relative(root, out)} (${width}x${height})`);
