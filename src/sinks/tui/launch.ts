import type { Observable } from 'rxjs';
import { asyncScheduler } from 'rxjs';
import { RuntimeError, type CliIo } from '../../cli/io.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionsState } from '../../core/contracts.js';
import type { Config } from '../../config/effective.js';
import { loadSessionNames } from '../../config/session-names.js';
import { makeLimitsCtx } from '../../limits/command.js';
import { detectTheme, queryBackground } from './detect-theme.js';
import { runTui } from './index.js';
import { readLimits } from './limits.js';
import { openScreen } from './terminal.js';
import { pickTheme } from './theme.js';

export interface TuiLaunch {
  readonly io: CliIo;
  readonly config: Config;
  /** The pipeline's shared state (startPipeline(...).state$). */
  readonly state$: Observable<SessionsState>;
  /** The agents the pipeline lists. */
  readonly agents: readonly AgentKind[];
  /** Where the sources look, for the "nothing found" message. */
  readonly searched?: readonly string[];
}

/** NO_COLOR (any non-empty value) turns colors off; the TUI keeps its layout and attributes. */
const colorsWanted = (env: CliIo['env']): boolean => !env.NO_COLOR;

/**
 * The TUI branch of `agentwatch [--tui]`: check for a terminal, resolve the theme, load names,
 * run until quit. Resolves to the exit code; the caller disposes the pipeline.
 */
export const launchTui = async (launch: TuiLaunch): Promise<number> => {
  const { io, config } = launch;
  const interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
  if (!interactive) throw new RuntimeError('the terminal UI needs an interactive terminal; use --api to run headless, or agentwatch sessions for a snapshot');
  const themeName = await detectTheme({
    setting: config.tui.theme,
    env: io.env,
    interactive,
    query: () => queryBackground(io.stdin, io.stdout),
  });
  const names = await loadSessionNames(io.env);
  const limitsCtx = makeLimitsCtx(io);
  await runTui({
    state$: launch.state$,
    config,
    env: io.env,
    platform: io.platform,
    now: () => asyncScheduler.now(),
    scheduler: asyncScheduler,
    theme: pickTheme(themeName, colorsWanted(io.env)),
    screen: openScreen(),
    agents: launch.agents,
    searched: launch.searched ?? [],
    names: names.names,
    ...(names.problem ? { namesProblem: names.problem } : {}),
    readLimits: (width) => readLimits(limitsCtx, width),
    stderr: io.stderr,
    // NOTE: only the crash guard calls this: a crash or a signal must end the process after restoring.
    exit: (code) => process.exit(code),
  });
  return 0;
};
