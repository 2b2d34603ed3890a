/** `agentwatch limits`: the command lives in src/limits; this is its CLI entry point. */
export { run } from '../limits/command.js';
