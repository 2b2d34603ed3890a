import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claude } from '../../../src/sources/claude/index.js';
import { gluedRecords } from '../../../src/sources/internal/glued-records.js';
import { diagnosticsOf, FIXTURES, useFixtureHome } from '../../helpers/source-harness.js';

const SID = 'd4f3a0b5-8e6a-4b1d-af94-5a7b1e0d3d44';
const texts = (line: string): string[] => gluedRecords(Buffer.from(line)).map((piece) => piece.toString());

describe('records written with no newline between them', () => {
  it('cuts a line of glued records where each piece is a JSON object, and leaves every other line whole', () => {
    expect(texts('{"a":1}{"b":2}{"c":{"d":3}}')).toEqual(['{"a":1}', '{"b":2}', '{"c":{"d":3}}']);
    // A string that ends in `}{` is not a seam.
    expect(texts('{"a":"x}{"}{"b":2}')).toEqual(['{"a":"x}{"}', '{"b":2}']);
    expect(texts('{"a":"x}{"}')).toEqual(['{"a":"x}{"}']);
    expect(texts('{"a":"\\\\frac{1}{2}"}')).toEqual(['{"a":"\\\\frac{1}{2}"}']);
    // Junk stays one junk line.
    expect(texts('{"a":1}{"b":')).toEqual(['{"a":1}{"b":']);
    expect(texts('[1]{"b":2}')).toEqual(['[1]{"b":2}']);
  });

  describe('in a Claude Code transcript', () => {
    const fx = useFixtureHome('agentwatch-glued-', async (home) => {
      const dir = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
      await mkdir(dir, { recursive: true });
      await copyFile(path.join(FIXTURES, 'claude', 'glued', `${SID}.jsonl`), path.join(dir, `${SID}.jsonl`));
    });

    it('reads both records of the glued line: the answer and its tokens are not lost', async () => {
      const run = await fx.once(claude);
      const session = run.sessions().get(SID);
      expect(session).toMatchObject({ userMessages: 2, assistantMessages: 2, model: 'claude-sonnet-4-5-20250929' });
      expect(session?.tokens).toMatchObject({ input: 10 + 12, output: 286 + 40 });
      // Only the cut line at the end is junk.
      expect(diagnosticsOf(run.events).map((d) => d.code)).toEqual(['E_JUNK_LINE']);
    });
  });
});
