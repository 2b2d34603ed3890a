import { isIP } from 'node:net';
import type { MonitorLaunch } from '../contracts.js';
import { openPlan } from '../../desktop/browser.js';
import { spawnDetached } from '../../desktop/spawn-detached.js';
import { pathFinder } from '../../desktop/which.js';
import { formatAddress, type ListenAddress } from '../../sinks/http/address.js';
import { terminalSafe } from '../../core/terminal-safe.js';

/**
 * `--gui`: the API server also serves the dashboard; say where (without the token: stderr ends up
 * in logs) and open it with the token in the URL fragment, which never reaches the server or its
 * logs (docs/dashboard.md). A browser that cannot be started is a warning: the URL is printed anyway.
 */

/** The address a browser on this machine reaches: a wildcard bind is reached through loopback. */
export const browsableAddress = (bound: ListenAddress): ListenAddress => {
  if (bound.host === '0.0.0.0') return { ...bound, host: '127.0.0.1' };
  if (bound.host === '::' || (isIP(bound.host) === 6 && /^[0:]+$/.test(bound.host))) return { ...bound, host: '::1' };
  return bound;
};

export const dashboardUrl = (bound: ListenAddress): string => `http://${formatAddress(browsableAddress(bound))}/`;

export const showDashboard = async (launch: Pick<MonitorLaunch, 'io' | 'open'>, bound: ListenAddress, token: string): Promise<void> => {
  const { io } = launch;
  const url = dashboardUrl(bound);
  io.stderr.write(`agentwatch: dashboard at ${url}\n`);
  if (launch.open === false) return;
  const plan = openPlan(`${url}#token=${token}`, io.platform, io.env, pathFinder(io.env, io.platform));
  if ('error' in plan) {
    io.stderr.write(terminalSafe(`agentwatch: ${plan.error}; open ${url} yourself and enter the passphrase\n`));
    return;
  }
  try {
    await spawnDetached(plan.step, { env: io.env });
    io.stderr.write(`agentwatch: opened the dashboard in ${plan.how}\n`);
  } catch (error) {
    io.stderr.write(terminalSafe(`agentwatch: cannot open the dashboard (${(error as Error).message}); open ${url} yourself and enter the passphrase\n`));
  }
};
