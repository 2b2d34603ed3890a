import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_BOUNDS } from '../../../src/config/bounds.js';
import { RESTART_HEADER } from '../../../src/sinks/http/routes/config.js';
import { deriveToken } from '../../../src/sinks/http/token.js';
import { loadConfig } from '../../../src/config/load.js';
import { makeDashboard, PASSPHRASE, readConfigFile, type DashboardHarness } from './dashboard-fixture.js';

let harness: DashboardHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const put = (h: DashboardHarness, payload: unknown, url = '/api/config') => h.app.inject({ method: 'PUT', url, headers: h.auth(), payload: payload as Record<string, unknown> });

const configFile = (h: DashboardHarness): string => path.join(h.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');

describe('PUT /api/config', () => {
  it('needs the token', async () => {
    harness = await makeDashboard();
    expect((await harness.app.inject({ method: 'PUT', url: '/api/config', payload: { window_minutes: 5 } })).statusCode).toBe(401);
  });

  it('a body that is not sent as JSON gets 415 saying what to send, and the file is left as it is', async () => {
    harness = await makeDashboard();
    const before = await readFile(configFile(harness), 'utf8');
    const plain = await harness.app.inject({ method: 'PUT', url: '/api/config', headers: { ...harness.auth(), 'content-type': 'text/plain' }, payload: '{"window_minutes":5}' });
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toEqual({ error: 'the body must be JSON (Content-Type: application/json), not text/plain' });
    const untyped = await harness.app.inject({ method: 'PUT', url: '/api/config', headers: harness.auth(), payload: Buffer.from('{"window_minutes":5}') });
    expect(untyped.statusCode).toBe(415);
    expect(untyped.json().error).toMatch(/^the body must be JSON \(Content-Type: application\/json\), not /);
    expect(await readFile(configFile(harness), 'utf8')).toBe(before);
  });

  it('merges a partial config into the file (unknown keys kept, 0600), answers the effective config and applies it live', async () => {
    harness = await makeDashboard();
    const res = await put(harness, { window_minutes: 90, card_density: 'compact', detail_width: 640, default_filter: 'waiting', agents: { codex: false } });
    expect(res.statusCode).toBe(200);
    expect(res.headers[RESTART_HEADER]).toBeUndefined();
    const body = res.json();
    expect(body).toMatchObject({ window_minutes: 90, card_density: 'compact', detail_width: 640, default_filter: 'waiting' });
    expect(body.agents).toMatchObject({ claude: true, codex: false, pi: true });
    expect(body).not.toHaveProperty('api_passphrase');
    expect(body).not.toHaveProperty('api_salt');
    // The same object GET /api/config answers from now on.
    expect((await harness.app.inject({ url: '/api/config', headers: harness.auth() })).json()).toEqual(body);
    const file = await readConfigFile(harness.env);
    expect(file).toMatchObject({ window_minutes: 90, card_density: 'compact', detail_width: 640, api_passphrase: PASSPHRASE, api_salt: 'salt-of-test', my_own_key: { kept: true } });
    expect((file.agents as Record<string, boolean>).codex).toBe(false);
    expect((await stat(configFile(harness))).mode & 0o777).toBe(0o600);
    expect(harness.live.current().window_minutes).toBe(90);
  });

  it.each([
    [{ window_minutes: 0 }, 'window_minutes must be at least 1'],
    [{ window_minutes: 'soon' }, 'window_minutes must be a whole number of minutes'],
    [{ card_density: 'huge' }, 'card_density must be one of compact, rich, live'],
    [{ detail_width: 120 }, 'detail_width must be at least 300'],
    [{ terminal: 'iterm' }, 'terminal must be one of terminal, kitty'],
    [{ default_filter: 'busy' }, 'default_filter must be one of'],
    [{ agents: { claud: false } }, 'unknown key "agents.claud" (did you mean "agents.claude"?)'],
    [{ tui: { them: 'dark' } }, 'unknown key "tui.them" (did you mean "tui.theme"?)'],
    [{ agents: { claude: 'no' } }, 'agents.claude must be true or false'],
    [{ notify_after_sec: 1.5 }, 'notify_after_sec must be a whole number of seconds'],
    [{ window_minuts: 5 }, 'unknown key "window_minuts" (did you mean "window_minutes"?)'],
    [{ api_passphrase: 'a new one that is long' }, 'api_passphrase is not writable here: use PUT /api/passphrase'],
    [{ api_salt: 'x' }, 'api_salt is not writable'],
    [{ webhooks: [{ name: 'x', url: 'ftp://nope' }] }, 'webhooks[0].url: url must be an http:// or https:// URL'],
    [{ webhooks: [{ name: 'x', url: 'http://127.0.0.1:9/', enabled: 'no' }] }, 'webhooks[0].enabled: Invalid input: expected boolean'],
    [{ webhooks: [{ name: 'x', url: 'http://127.0.0.1:9/', events: 'waiting' }] }, 'webhooks[0].events: Invalid input: expected array'],
    [[1, 2], 'expected a JSON object'],
  ])('400 naming the field for %j, file untouched', async (payload, message) => {
    harness = await makeDashboard();
    const before = await readFile(configFile(harness), 'utf8');
    const res = await put(harness, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(message);
    expect(await readFile(configFile(harness), 'utf8')).toBe(before);
  });

  it('GET /api/config tells the bounds of the whole-number keys beside the values, and a PUT of that answer as it is is taken', async () => {
    harness = await makeDashboard();
    const shown = (await harness.app.inject({ url: '/api/config', headers: harness.auth() })).json();
    expect(shown.bounds).toEqual(CONFIG_BOUNDS);
    expect(shown.bounds.window_minutes).toEqual({ min: 1, max: 10080, stepper: { min: 10, max: 480, step: 10 } });
    const again = await put(harness, { ...shown, window_minutes: 45 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ ...shown, window_minutes: 45 });
    expect(await readConfigFile(harness.env)).not.toHaveProperty('bounds');
  });

  it('names what needs a restart: claude_dirs, webhooks, the TUI theme, an agent whose source is not running', async () => {
    harness = await makeDashboard();
    const res = await put(harness, { claude_dirs: ['/srv/claude'], tui: { theme: 'light' }, agents: { pi: false } });
    expect(res.statusCode).toBe(200);
    expect(res.headers[RESTART_HEADER]).toBe('claude_dirs, tui.theme');
    // Switching pi back on: its source is not running in this harness (claude and codex are).
    await put(harness, { agents: { pi: true } });
    const again = await put(harness, { claude_dirs: [] });
    expect(again.headers[RESTART_HEADER]).toBe('tui.theme');
  });

  it('webhooks sent back without secrets keep the stored secret of the same name', async () => {
    harness = await makeDashboard();
    await put(harness, { webhooks: [{ name: 'ci', url: 'http://127.0.0.1:9/hook', secret: 's3cr3t', extra: 'mine' }] });
    const shown = (await harness.app.inject({ url: '/api/config', headers: harness.auth() })).json().webhooks;
    expect(shown).toEqual([{ name: 'ci', url: 'http://127.0.0.1:9/hook', events: [], agents: [], enabled: true, extra: 'mine', has_secret: true }]);
    const res = await put(harness, { webhooks: [{ ...shown[0], enabled: false }] });
    expect(res.statusCode).toBe(200);
    expect(res.headers[RESTART_HEADER]).toBe('webhooks');
    expect((await readConfigFile(harness.env)).webhooks).toEqual([{ name: 'ci', url: 'http://127.0.0.1:9/hook', secret: 's3cr3t', extra: 'mine', events: [], agents: [], enabled: false }]);
  });

  it('a config file that became invalid is not overwritten (409 naming it)', async () => {
    harness = await makeDashboard();
    await writeFile(configFile(harness), '{ "window_minutes": 5,');
    const res = await put(harness, { window_minutes: 7 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/config\.json:1:\d+: not valid JSON/);
    expect(await readFile(configFile(harness), 'utf8')).toBe('{ "window_minutes": 5,');
  });

  it('a read-only config file is refused, not replaced', async () => {
    harness = await makeDashboard();
    await chmod(configFile(harness), 0o400);
    const res = await put(harness, { window_minutes: 7 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/read-only/);
  });

  it('launch_at_login creates and removes the XDG autostart entry', async () => {
    harness = await makeDashboard();
    const entry = path.join(harness.env.XDG_CONFIG_HOME ?? '', 'autostart', 'agentwatch.desktop');
    expect((await put(harness, { launch_at_login: true })).statusCode).toBe(200);
    expect(await readFile(entry, 'utf8')).toContain('Exec="/opt/node/bin/node" "/opt/agentwatch/dist/cli.js" "--gui" "--no-open"');
    expect((await readConfigFile(harness.env)).launch_at_login).toBe(true);
    expect((await put(harness, { launch_at_login: false })).statusCode).toBe(200);
    await expect(stat(entry)).rejects.toThrow(/ENOENT/);
  });

  it('launch_at_login that cannot be written is a 500 naming the entry, and the setting is not saved', async () => {
    harness = await makeDashboard();
    // A file where the autostart directory belongs.
    await writeFile(path.join(harness.env.XDG_CONFIG_HOME ?? '', 'autostart'), 'not a directory');
    const res = await put(harness, { launch_at_login: true, window_minutes: 45 });
    expect(res.statusCode).toBe(500);
    expect(res.json().error).toMatch(/^launch_at_login: cannot write .*autostart\/agentwatch\.desktop: /);
    expect(await readConfigFile(harness.env)).toMatchObject({ launch_at_login: false, window_minutes: 30 });
  });

  it('launch_at_login on Windows is refused with a message, nothing saved', async () => {
    harness = await makeDashboard({ platform: 'win32' });
    const res = await put(harness, { launch_at_login: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('launch_at_login is offered on macOS and Linux only (this is win32)');
    expect((await readConfigFile(harness.env)).launch_at_login).toBe(false);
  });
});

describe('PUT /api/passphrase', () => {
  it('rotates the saved passphrase (checked against the current one), never answering it', async () => {
    harness = await makeDashboard();
    const res = await put(harness, { current: PASSPHRASE, new: '  a brand new passphrase  ' }, '/api/passphrase');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(PASSPHRASE);
    expect(res.body).not.toContain('a brand new passphrase');
    expect(res.body).not.toContain(await deriveToken('a brand new passphrase', 'salt-of-test'));
    expect(res.json().effective).toMatch(/next start/);
    const loaded = await loadConfig(harness.env, { write: false });
    expect(loaded.config.api_passphrase).toBe('a brand new passphrase');
    expect(loaded.config.api_salt).toBe('salt-of-test');
    // The running server keeps its token until restarted.
    expect((await harness.app.inject({ url: '/api/stats', headers: harness.auth() })).statusCode).toBe(200);
  });

  it('refuses a wrong current passphrase (403), a short one (400), other keys (400)', async () => {
    harness = await makeDashboard();
    const wrong = await put(harness, { current: 'not the passphrase at all', new: 'a brand new passphrase' }, '/api/passphrase');
    expect(wrong.statusCode).toBe(403);
    const short = await put(harness, { new: 'too short' }, '/api/passphrase');
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('new: the passphrase must be at least 12 characters');
    // Seven characters, fourteen UTF-16 code units.
    const emoji = await put(harness, { new: '🔑'.repeat(7) }, '/api/passphrase');
    expect(emoji.statusCode).toBe(400);
    expect(emoji.json().error).toBe('new: the passphrase must be at least 12 characters');
    const extra = await put(harness, { new: 'a brand new passphrase', show: true }, '/api/passphrase');
    expect(extra.statusCode).toBe(400);
    expect((await loadConfig(harness.env, { write: false })).config.api_passphrase).toBe(PASSPHRASE);
  });

  it('says so when AGENTWATCH_API_PASSPHRASE overrides the file (409)', async () => {
    harness = await makeDashboard({ env: { AGENTWATCH_API_PASSPHRASE: PASSPHRASE } });
    const res = await put(harness, { new: 'a brand new passphrase' }, '/api/passphrase');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/AGENTWATCH_API_PASSPHRASE/);
  });

  it('needs the token', async () => {
    harness = await makeDashboard();
    expect((await harness.app.inject({ method: 'PUT', url: '/api/passphrase', payload: { new: 'a brand new passphrase' } })).statusCode).toBe(401);
  });
});
