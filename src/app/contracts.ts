import type { Loaded } from '../config/load.js';
import type { LiveConfig } from '../config/live.js';
import type { Ctx } from '../sources/contracts.js';
import type { RunningSink, SinkStreams } from '../streams/sink.js';
import type { CliIo } from '../core/io.js';
import type { LiveIndex } from '../search/live.js';
import type { ListenAddress } from '../sinks/http/address.js';
import type { WebhookMetrics } from '../sinks/metrics/index.js';

/** The monitor's interfaces: `--tui`, `--api`, `--gui`. */
export type Mode = 'tui' | 'api' | 'gui';

/** What every mode is made with: the loaded config and the parsed options (the streams come when it starts). */
export interface MonitorLaunch {
  readonly io: CliIo;
  readonly loaded: Loaded;
  /** From `--host`; undefined when absent (127.0.0.1 with the port fallback). */
  readonly address: ListenAddress | undefined;
  /** The live search index GET /api/search and the TUI's `s` answer from (in --demo: of the generated sessions, in memory). */
  readonly search?: LiveIndex;
  /** The running config: what the Settings panel saves lands here and is applied live. */
  readonly live?: LiveConfig;
  readonly demo?: boolean;
  /** False with `--no-open`: --gui serves the dashboard without opening a browser. */
  readonly open?: boolean;
}

/** A running interface. `done` resolves (with an exit code) when it ends on its own, e.g. the TUI quits. */
export interface RunningMode extends RunningSink {
  readonly done: Promise<number>;
  readonly stop: () => Promise<void>;
  /** Set by the API: its base URL, which webhook payloads link to. */
  readonly apiBaseUrl?: string;
  /** Set by the API: where the webhook sink reports for GET /metrics. */
  readonly webhookMetrics?: WebhookMetrics;
  /** Brings the mode's cached views up to date now (they let go of states the fold replaced). */
  readonly settle?: () => void;
}

/** A sink that is an interface: it starts asynchronously and says how it ended. */
type InterfaceSink = (streams: SinkStreams, ctx: Ctx) => Promise<RunningMode>;

export interface ModeRunner {
  /**
   * Runs before the pipeline starts: questions and checks that must fail fast (the API
   * passphrase), and what should be up before the rest loads (the API's socket).
   */
  readonly prepare?: (io: CliIo, loaded: Loaded, address: ListenAddress | undefined) => Promise<void>;
  /**
   * The interface as a sink of the shared streams (streams/sink.ts), started through `startSink`
   * before the sources so that it answers during the first discovery.
   */
  readonly sink: (launch: MonitorLaunch) => InterfaceSink;
  /** Releases what `prepare` took when the sink never started or failed to (idempotent; after a start, `stop` owns it). */
  readonly release?: () => Promise<void>;
}
