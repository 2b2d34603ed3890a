import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../src/core/agents.js';
import { AGENT_COLOUR, AGENTS } from '../../src/sources/agents.js';
import { agentCss } from '../../web/src/lib/agent-css.js';

const css = agentCss(AGENT_COLOUR);
const [dark = '', light = ''] = css.split('@media (prefers-color-scheme: light)');

describe('the dashboard palette', () => {
  it("gives every agent its descriptor's colour in the dark and the light scheme", () => {
    for (const kind of AGENT_KINDS) {
      expect(dark.match(new RegExp(`--agent-${kind}:\\s*#[0-9a-f]{6};`, 'g')), kind).toEqual([`--agent-${kind}: ${AGENTS[kind].colour.web.dark};`]);
      expect(light.match(new RegExp(`--agent-${kind}:\\s*#[0-9a-f]{6};`, 'g')), kind).toEqual([`--agent-${kind}: ${AGENTS[kind].colour.web.light};`]);
    }
  });

  it('keeps no list of agents in the stylesheet: the colours are built from the registry', () => {
    const stylesheet = readFileSync(path.join(import.meta.dirname, '..', '..', 'web', 'src', 'styles', 'global.css'), 'utf8');
    expect(stylesheet).not.toMatch(/--agent-/);
  });
});
