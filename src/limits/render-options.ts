/** How a limits view is rendered; pure inputs so the CLI, the TUI and snapshots agree. */
export interface RenderOptions {
  readonly color: boolean;
  /** Epoch ms the elapsed/expected figures are computed against. */
  readonly now: number;
  /** Terminal columns available. */
  readonly width: number;
  /** IANA zone for absolute times; the process zone when absent. */
  readonly tz?: string;
}
