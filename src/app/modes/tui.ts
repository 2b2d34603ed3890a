import { RuntimeError, type CliIo } from '../../core/io.js';
import type { MonitorLaunch, RunningMode } from '../contracts.js';
import type { Ctx } from '../../sources/contracts.js';
import type { SinkStreams } from '../../streams/sink.js';
import { agentLocations } from '../../doctor/sessions-locations.js';
import { loadSessionNames } from '../../config/session-names.js';
import { makeLimitsCtx } from '../../limits/make-ctx.js';
import { sessionsAtOf } from '../limits-sessions.js';
import { detectTheme, queryBackground } from '../../sinks/tui/detect-theme.js';
import { runTui } from '../../sinks/tui/index.js';
import { createWorktreeLookup } from '../worktree.js';
import { captureStderr } from '../../sinks/tui/stderr-capture.js';
import { limitsText, readLimits, type LimitsRenderer } from '../../sinks/tui/limits.js';
import { openScreen } from '../../sinks/tui/terminal.js';
import { pickTheme } from '../../sinks/tui/theme.js';
import { SAMPLE_NOTE, sampleOutcomes } from '../../limits/sample.js';
import { configNotices } from '../../config/notices.js';
import { contentSearch } from '../../sinks/tui/content-search.js';

/** The limits modal under --demo: generated windows, said to be sample on the Summary tab too. */
const sampleLimits = (): LimitsRenderer => {
  const now = Date.now();
  const outcomes = sampleOutcomes(now);
  return (width) => {
    const text = limitsText(outcomes, now, width);
    return { ...text, summary: [...text.summary, '', SAMPLE_NOTE] };
  };
};

/** stderr lines that report, rather than warn: everything else the TUI shows as a warning. */
const isInformation = (text: string): boolean =>
  /^--demo:|^webhooks: resuming|succeeded on attempt|receiver is back|took over \d+ queued|listening on|serving |^API |^dashboard /i.test(text);

/** NO_COLOR (any non-empty value) turns colors off; the TUI keeps its layout and attributes. */
const colorsWanted = (env: CliIo['env']): boolean => !env.NO_COLOR;

/** Fails fast, before the pipeline starts: the TUI needs a terminal on both ends. */
export const prepareTui = (io: CliIo): Promise<void> => {
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    return Promise.reject(new RuntimeError('the terminal UI needs an interactive terminal; use --api to run headless, or agentwatch sessions for a snapshot'));
  }
  return Promise.resolve();
};

/**
 * The TUI branch of `agentwatch [--tui]`: resolve the theme, load the custom names, run over the
 * shared pipeline. `done` resolves with exit code 0 when the user quits; `stop` (the monitor on
 * SIGINT/SIGTERM) ends it and restores the terminal.
 */
export const startTui = async (launch: MonitorLaunch, streams: SinkStreams, ctx: Ctx): Promise<RunningMode> => {
  const { io } = launch;
  const { config } = launch.loaded;
  const themeName = await detectTheme({
    setting: config.tui.theme,
    env: io.env,
    interactive: io.stdin.isTTY === true && io.stdout.isTTY === true,
    query: () => queryBackground(io.stdin, io.stdout),
  });
  const names = await loadSessionNames(io.env);
  const limitsCtx = makeLimitsCtx(io, { sessionsAt: sessionsAtOf(config, io.env, io.platform) });
  const demo = io.argv.includes('--demo');
  let tellTui = (_line: string): void => undefined;
  const held = captureStderr(io.stderr, (line) => tellTui(line));
  const tui = runTui({
    frame$: streams.frame$,
    config,
    env: io.env,
    platform: io.platform,
    now: ctx.now,
    scheduler: ctx.scheduler,
    theme: pickTheme(themeName, colorsWanted(io.env)),
    screen: openScreen(),
    agents: [...streams.visibility.agents],
    searched: demo ? [] : streams.agents.flatMap((agent) => agentLocations(agent, config, io.env, io.platform)),
    worktree: createWorktreeLookup(),
    names: names.names,
    ...(names.problem ? { namesProblem: names.problem } : {}),
    // --demo: generated sample windows, marked as sample, and no request to any vendor.
    readLimits: () => (demo ? Promise.resolve(sampleLimits()) : readLimits(limitsCtx)),
    ...(launch.search ? { searchContent: contentSearch(launch.search, streams.agents), searchCatchingUp: launch.search.indexing } : {}),
    // A crash message must not be held like a warning: release the capture, then write.
    report: (message) => {
      const lines = [...held.release(), message];
      io.stderr.write(`${lines.join('\n')}\n`);
    },
    // NOTE: only the crash guard calls this: an uncaught error must end the process once the terminal is back.
    exit: (code) => process.exit(code),
    signals: 'restore-only',
  });
  // Information (the demo's note, the API's address, a receiver that is back) flashes in the help
  // bar; anything else is a warning, kept on the status line and in the ? overlay while the TUI runs.
  tellTui = (line) => {
    const text = line.replace(/^agentwatch: /, '');
    if (text.trim() === '') return;
    if (isInformation(text)) tui.notify(text, 'info');
    else tui.warn(text);
  };
  // The config's warnings (unknown keys, fallbacks) were printed before the screen was taken: show them inside too.
  for (const line of configNotices(launch.loaded.path, launch.loaded)) tui.warn(line.replace(/^agentwatch: /, ''));
  // Once the terminal is back, the held warnings go where they were meant to.
  const released = tui.done.finally(() => {
    const lines = held.release();
    if (lines.length > 0) io.stderr.write(`${lines.join('\n')}\n`);
  });
  return {
    done: released.then(() => 0),
    stop: () => {
      tui.stop();
      return released.then(
        () => undefined,
        () => undefined,
      );
    },
  };
};
