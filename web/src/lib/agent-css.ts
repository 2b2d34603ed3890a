import type { AgentColour } from '../../../src/sources/descriptor.js';

/**
 * The agents' colours as CSS custom properties, `--agent-<kind>`, for the dark scheme and, under
 * `prefers-color-scheme: light`, the light one: built from the agent registry with the dashboard
 * (vite.config.ts), so the stylesheet keeps no list of agents.
 */
export const agentCss = (colours: Readonly<Record<string, AgentColour>>): string => {
  const entries = Object.entries(colours);
  const dark = entries.map(([kind, colour]) => `  --agent-${kind}: ${colour.web.dark};`);
  const light = entries.map(([kind, colour]) => `    --agent-${kind}: ${colour.web.light};`);
  return [':root {', ...dark, '}', '', '@media (prefers-color-scheme: light) {', '  :root {', ...light, '  }', '}', ''].join('\n');
};
