/** The environment variables agentwatch reads; everything path-like is derived from these. */
export type Env = Readonly<Record<string, string | undefined>>;
