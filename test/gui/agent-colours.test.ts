import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_COLOURS } from '../../src/sources/descriptor.js';

const css = readFileSync(path.join(import.meta.dirname, '..', '..', 'web', 'src', 'styles', 'global.css'), 'utf8');

describe('the dashboard palette', () => {
  it('maps every agent colour slot in the dark and the light scheme', () => {
    for (const slot of AGENT_COLOURS) expect(css.match(new RegExp(`--agent-${slot}:\\s*#[0-9a-f]{6};`, 'g')), slot).toHaveLength(2);
  });
});
