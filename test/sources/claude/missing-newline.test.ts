import { appendFile, copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claude } from '../../../src/sources/claude/index.js';
import { gluedRecords } from '../../../src/sources/internal/glued-records.js';
import { diagnosticsOf, FIXTURES, useFixtureHome, waitFor } from '../../helpers/source-harness.js';

const SID = 'd4f3a0b5-8e6a-4b1d-af94-5a7b1e0d3d44';
const texts = (line: string): string[] => gluedRecords(Buffer.from(line)).map((piece) => piece.toString());

describe('records without a newline after them', () => {
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

  describe('a transcript whose last record has no newline after it', () => {
    const ID = 'e5a4b1c6-9f7b-4c2e-b0a5-6b8c2f1e4e55';
    const envelope = { sessionId: ID, cwd: '/home/dev/shop', version: '2.1.34', gitBranch: 'main', isSidechain: false, userType: 'external' };
    const record = (n: number, type: 'user' | 'assistant', content: string, output = 0): string =>
      JSON.stringify({
        ...envelope,
        type,
        timestamp: `2026-11-23T11:0${n}:00.000Z`,
        uuid: `e5a4b1c6-0000-4000-8000-00000000000${n}`,
        message: type === 'user' ? { role: 'user', content } : { id: `msg_e${n}`, role: 'assistant', model: 'claude-opus-4-6', type: 'message', content: [{ type: 'text', text: content }], usage: { input_tokens: 1, output_tokens: output } },
      });
    const fx = useFixtureHome('agentwatch-last-line-', async (home) => {
      const dir = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `${ID}.jsonl`), `${record(1, 'user', 'Add fish completions')}\n${record(2, 'assistant', 'Added.', 26)}`);
    });
    const file = (): string => path.join(fx.home.home, '.claude', 'projects', '-home-dev-shop', `${ID}.jsonl`);

    it('reads that record: the last answer and its tokens count', async () => {
      const run = await fx.once(claude);
      expect(run.sessions().get(ID)).toMatchObject({ userMessages: 1, assistantMessages: 1, tokens: { input: 1, output: 26, cacheCreation: 0, cacheRead: 0 } });
      expect(diagnosticsOf(run.events)).toEqual([]);
    });

    it('while watched: the newline and the next record that follow are read once, and a half-written record waits', async () => {
      const run = await fx.ready(claude);
      expect(run.sessions().get(ID)?.assistantMessages).toBe(1);
      await appendFile(file(), `\n${record(3, 'user', 'Now for zsh')}\n${record(4, 'assistant', 'Done', 9).slice(0, 60)}`);
      await waitFor('the next prompt', () => run.sessions().get(ID)?.userMessages === 2);
      await appendFile(file(), `${record(4, 'assistant', 'Done', 9).slice(60)}\n`);
      await waitFor('the answer', () => run.sessions().get(ID)?.assistantMessages === 2);
      expect(run.sessions().get(ID)?.tokens).toMatchObject({ input: 2, output: 35 });
      expect(diagnosticsOf(run.events)).toEqual([]);
    });
  });
});
