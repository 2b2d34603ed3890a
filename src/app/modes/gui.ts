import { isIP } from 'node:net';
import type { MonitorLaunch } from '../contracts.js';
import { openPlan } from '../../desktop/browser.js';
import { noDisplay } from '../../desktop/display.js';
import { spawnSurviving } from '../../desktop/spawn-detached.js';
import { pathFinder } from '../../desktop/which.js';
import { formatAddress, type ListenAddress } from '../../sinks/http/address.js';
import { terminalSafe } from '../../core/terminal-safe.js';

/**
 * `--gui`: the API server also serves the dashboard; say where (without the token: stderr ends up
 * in logs) and open it with the token in the URL fragment, which never reaches the server or its
 * logs (docs/dashboard.md). No display, a browser that cannot be started or a window that closes
 * at once is a warning saying why: the URL is printed with how to sign in.
 */

/** The address a browser on this machine reaches: a wildcard bind is reached through loopback. */
const browsableAddress = (bound: ListenAddress): ListenAddress => {
  if (bound.host === '0.0.0.0') return { ...bound, host: '127.0.0.1' };
  if (bound.host === '::' || (isIP(bound.host) === 6 && /^[0:]+$/.test(bound.host))) return { ...bound, host: '::1' };
  return bound;
};

const dashboardUrl = (bound: ListenAddress): string => `http://${formatAddress(browsableAddress(bound))}/`;

/** How long the window must live before it counts as open. */
const WINDOW_SETTLE_MS = 3_000;

export interface ShowOptions {
  /** Resolves when the window has lived long enough (a timer; tests pass their own). */
  readonly settled?: () => Promise<void>;
  readonly start?: typeof spawnSurviving;
}

const settleTimer = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, WINDOW_SETTLE_MS).unref());

export const showDashboard = async (launch: Pick<MonitorLaunch, 'io' | 'open'>, bound: ListenAddress, token: string, options: ShowOptions = {}): Promise<void> => {
  const { io } = launch;
  const url = dashboardUrl(bound);
  io.stderr.write(`agentwatch: dashboard at ${url}\n`);
  if (launch.open === false) return;
  // What to do instead, after saying why no window opened: the token stays out of the output.
  const yourself = `open ${url} in a browser yourself and sign in with your passphrase (agentwatch passphrase sets a new one)`;
  const display = noDisplay(io.platform, io.env);
  if (display !== undefined) {
    io.stderr.write(terminalSafe(`agentwatch: no dashboard window: ${display}; ${yourself}\n`));
    return;
  }
  const plan = openPlan(`${url}#token=${token}`, io.platform, io.env, pathFinder(io.env, io.platform));
  if ('error' in plan) {
    io.stderr.write(terminalSafe(`agentwatch: ${plan.error}; ${yourself}\n`));
    return;
  }
  try {
    await (options.start ?? spawnSurviving)(plan.step, { env: io.env, settled: options.settled ?? settleTimer });
    io.stderr.write(`agentwatch: opened the dashboard in ${plan.how}\n`);
  } catch (error) {
    io.stderr.write(terminalSafe(`agentwatch: no dashboard window: ${(error as Error).message}; ${yourself}\n`));
  }
};
