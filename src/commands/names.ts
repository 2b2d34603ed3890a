/**
 * The CLI's command names, in the order of the help overview. The registry (cli/registry.ts) must
 * hold exactly these; the monitor suggests one of them for a stray word after its flags.
 */
export const COMMAND_NAMES = ['limits', 'webhooks', 'sessions', 'search', 'doctor', 'passphrase'] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
