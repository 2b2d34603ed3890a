/**
 * Whatever ends the process, the terminal is given back first: raw mode off, cursor visible,
 * alternate screen left. Installed while the TUI runs, removed when it ends normally.
 */
export interface CrashGuardDeps {
  readonly restore: () => void;
  /** Writes the crash message where the user sees it (after the terminal is restored). */
  readonly report: (message: string) => void;
  /** process.exit: a crash or a termination signal must end the process once the terminal is back. */
  readonly exit: (code: number) => void;
  readonly process?: NodeJS.EventEmitter;
  /**
   * 'restore-only': SIGINT/SIGTERM give the terminal back at once and leave the orderly shutdown
   * to the caller's own handler (the monitor disposes the pipeline and flushes the cache).
   * SIGHUP (the terminal is gone) always exits.
   */
  readonly signals?: 'restore-and-exit' | 'restore-only';
}

const SIGNALS = { SIGTERM: 143, SIGHUP: 129, SIGINT: 130 } as const;

export const installCrashGuard = (deps: CrashGuardDeps): (() => void) => {
  const proc = deps.process ?? process;
  const onCrash = (error: unknown): void => {
    deps.restore();
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    deps.report(`agentwatch: unexpected error: ${text}`);
    deps.exit(1);
  };
  const onSignal = (signal: keyof typeof SIGNALS) => (): void => {
    deps.restore();
    if (deps.signals !== 'restore-only' || signal === 'SIGHUP') deps.exit(SIGNALS[signal]);
  };
  const signalHandlers = (Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]).map((signal) => [signal, onSignal(signal)] as const);
  proc.on('uncaughtException', onCrash);
  proc.on('unhandledRejection', onCrash);
  for (const [signal, handler] of signalHandlers) proc.on(signal, handler);
  return () => {
    proc.off('uncaughtException', onCrash);
    proc.off('unhandledRejection', onCrash);
    for (const [signal, handler] of signalHandlers) proc.off(signal, handler);
  };
};
