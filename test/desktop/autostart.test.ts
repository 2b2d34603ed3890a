import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { autostartEntry, autostartPath, setLaunchAtLogin } from '../../src/desktop/autostart.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

const COMMAND = ['/opt/node 20/bin/node', '/opt/agentwatch/dist/cli.js', '--gui', '--no-open'];

describe('launch_at_login', () => {
  it('Linux: $XDG_CONFIG_HOME/autostart/agentwatch.desktop, created and removed', async () => {
    home = await makeTempHome();
    const file = await setLaunchAtLogin(true, { platform: 'linux', env: home.env, command: COMMAND });
    expect(file).toBe(path.join(home.env.XDG_CONFIG_HOME ?? '', 'autostart', 'agentwatch.desktop'));
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^\[Desktop Entry\]\nType=Application\nName=agentwatch\n/);
    expect(text).toContain('Exec="/opt/node 20/bin/node" "/opt/agentwatch/dist/cli.js" "--gui" "--no-open"\n');
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    expect(await setLaunchAtLogin(false, { platform: 'linux', env: home.env, command: COMMAND })).toBe(file);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    // Removing what is not there is fine.
    await setLaunchAtLogin(false, { platform: 'linux', env: home.env, command: COMMAND });
  });

  it('Linux without XDG_CONFIG_HOME: ~/.config/autostart', () => {
    expect(autostartPath('linux', { HOME: '/home/me' })).toBe('/home/me/.config/autostart/agentwatch.desktop');
  });

  it('macOS: a LaunchAgent that runs at load, created and removed', async () => {
    home = await makeTempHome();
    const file = await setLaunchAtLogin(true, { platform: 'darwin', env: home.env, command: COMMAND });
    expect(file).toBe(path.join(home.home, 'Library', 'LaunchAgents', 'dev.agentwatch.agentwatch.plist'));
    const text = await readFile(file, 'utf8');
    expect(text).toContain('<key>Label</key>\n  <string>dev.agentwatch.agentwatch</string>');
    expect(text).toContain('<array>\n    <string>/opt/node 20/bin/node</string>\n    <string>/opt/agentwatch/dist/cli.js</string>\n    <string>--gui</string>\n    <string>--no-open</string>\n  </array>');
    expect(text).toContain('<key>RunAtLoad</key>\n  <true/>');
    await setLaunchAtLogin(false, { platform: 'darwin', env: home.env, command: COMMAND });
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it('quotes what the formats need quoted', () => {
    expect(autostartEntry('linux', ['/a "b"/$x\\y', '50%'])).toContain('Exec="/a \\"b\\"/\\$x\\\\y" "50%%"');
    expect(autostartEntry('darwin', ['/a&b<c>'])).toContain('<string>/a&amp;b&lt;c&gt;</string>');
  });

  it('Windows: refused with a message', async () => {
    await expect(setLaunchAtLogin(true, { platform: 'win32', env: {}, command: COMMAND })).rejects.toThrow('launch_at_login is offered on macOS and Linux only (this is win32)');
  });
});
