import { COMMANDS, MONITOR } from './registry.js';

/** The overview printed by `agentwatch --help` (and by bare `agentwatch` before any mode exists). */
export const overview = (version: string): string => {
  const names = Object.keys(COMMANDS);
  const width = Math.max(10, ...names.map((n) => n.length)) + 2;
  const commandLines = names.map((name) => `  agentwatch ${name.padEnd(width)}${COMMANDS[name]?.summary ?? ''}`);
  return [
    `agentwatch ${version}: one eye on every coding agent on this machine`,
    '',
    'Usage',
    ...(MONITOR ? [MONITOR.usage] : []),
    ...(commandLines.length > 0 ? commandLines : ['  (no commands yet)']),
    '',
    'Global options',
    '  --help, -h       Show this help (or a command\'s: agentwatch <command> --help)',
    '  --version, -v    Print the version',
    '',
    'Configuration: $XDG_CONFIG_HOME/agentwatch/config.json (default ~/.config/agentwatch/config.json)',
    '',
  ].join('\n');
};
