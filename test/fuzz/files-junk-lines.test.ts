import { describe, expect, it } from 'vitest';
import type { DiagnosticEvent, SessionEvent } from '../../src/core/session.js';
import { makeCtx } from '../helpers/source-harness.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { FUZZ_AGENTS, type FuzzAgent, pickSeed, writePlaced } from './files-agents.js';
import { replay } from './files-checks.js';
import { onePass } from './files-passes.js';
import { junkLine, splitLines } from './files-mutate.js';
import { fuzzCases, mulberry32, pick, randInt, type Rng } from './prng.js';

/**
 * Property 4: a complete line that is not JSON, or JSON that is not a record, is counted, with
 * its file and line (doctor lists both). The rule (line-helpers.ts `decodeLine`; kimi and grok
 * parse.ts): not JSON is E_JUNK_LINE everywhere; a JSON scalar is E_JUNK_LINE for claude, codex
 * and pi ("not a JSON object") and E_SCHEMA for kimi and grok ("record without a type"); a JSON
 * array is E_SCHEMA everywhere (an object of the wrong shape to `typeof`). Blank lines count nothing. amp reads a whole document: one that is not JSON is one E_JUNK_LINE, JSON that
 * is no thread one E_SCHEMA, and it shows no session.
 */
const CASES = fuzzCases(20, 0x5eed_5004);

/** JSON values that are no record. */
const NOT_RECORDS = ['42', '"just a string"', '[1, 2, 3]', 'null', 'true', '-0.5e3', '[]'];

const codeOfNonRecord = (agent: FuzzAgent, json: string): DiagnosticEvent['code'] => (json.startsWith('[') || agent.agent === 'kimi' || agent.agent === 'grok' ? 'E_SCHEMA' : 'E_JUNK_LINE');

const fileDiagnostics = (events: readonly SessionEvent[], file: string): DiagnosticEvent[] =>
  events.filter((e): e is DiagnosticEvent => e.type === 'diagnostic' && e.path === file && e.count === undefined);

const countOf = (diagnostics: readonly DiagnosticEvent[], code: DiagnosticEvent['code']): number => diagnostics.filter((d) => d.code === code).length;

/** `lines` with `inserted` put at random places among them; the 1-based line numbers they end up at. */
const insertLines = (rng: Rng, lines: readonly Buffer[], inserted: readonly string[]): { lines: Buffer[]; at: number[] } => {
  const out = [...lines];
  const marks = new Set<Buffer>();
  for (const text of inserted) {
    const line = Buffer.from(text);
    marks.add(line);
    out.splice(randInt(rng, 0, out.length), 0, line);
  }
  return { lines: out, at: out.flatMap((line, i) => (marks.has(line) ? [i + 1] : [])) };
};

describe.each(FUZZ_AGENTS.filter((a) => a.agent !== 'amp'))('$agent: junk lines in a transcript', (agent) => {
  it(`are each counted, at their line (${CASES.length} cases)`, async () => {
    for (const seed of CASES) {
      const rng = mulberry32(seed);
      const picked = pickSeed(rng, agent);
      const junk = Array.from({ length: randInt(rng, 1, 4) }, () => junkLine(rng));
      const nonRecords = Array.from({ length: randInt(rng, 0, 2) }, () => pick(rng, NOT_RECORDS));
      const blanks = Array.from({ length: randInt(rng, 0, 2) }, () => pick(rng, ['', '   ', '\t']));
      const { lines, tail } = splitLines(picked.bytes);
      const withJunk = insertLines(rng, lines, [...junk, ...nonRecords, ...blanks]);
      const bytes = Buffer.concat([...withJunk.lines.flatMap((l) => [l, Buffer.from('\n')]), tail]);
      const why = replay('junk lines counted', agent.agent, seed, picked.name, [`junk ${JSON.stringify(junk)}`, `not records ${JSON.stringify(nonRecords)}`, `${blanks.length} blank`]);
      const cleanHome = await makeTempHome('agentwatch-fuzz-clean-');
      const junkHome = await makeTempHome('agentwatch-fuzz-junk-');
      try {
        const layout = rng() * 2 ** 32;
        const cleanPlaced = agent.locate(cleanHome, picked, mulberry32(layout));
        const junkPlaced = agent.locate(junkHome, picked, mulberry32(layout));
        await writePlaced(cleanPlaced, picked, picked.bytes);
        await writePlaced(junkPlaced, picked, bytes);
        const before = fileDiagnostics((await onePass(agent.source, makeCtx(cleanHome.env))).events, cleanPlaced.file);
        const pass = await onePass(agent.source, makeCtx(junkHome.env));
        expect(pass.errors, why).toEqual([]);
        const after = fileDiagnostics(pass.events, junkPlaced.file);
        const expected = { E_JUNK_LINE: countOf(before, 'E_JUNK_LINE') + junk.length, E_SCHEMA: countOf(before, 'E_SCHEMA') };
        for (const json of nonRecords) expected[codeOfNonRecord(agent, json) as keyof typeof expected] += 1;
        expect({ E_JUNK_LINE: countOf(after, 'E_JUNK_LINE'), E_SCHEMA: countOf(after, 'E_SCHEMA') }, why).toEqual(expected);
        // Every inserted line is named by its line number (blank ones are no diagnostic).
        const named = new Set(after.filter((d) => d.code === 'E_JUNK_LINE' || d.code === 'E_SCHEMA').map((d) => d.line));
        const insertedAt = withJunk.at.filter((line) => (withJunk.lines[line - 1] as Buffer).toString().trim() !== '');
        expect(insertedAt.filter((line) => !named.has(line)), why).toEqual([]);
      } finally {
        await cleanHome.cleanup();
        await junkHome.cleanup();
      }
    }
  });
});

describe('amp: a thread document that is no thread', () => {
  const amp = FUZZ_AGENTS.find((a) => a.agent === 'amp') as FuzzAgent;
  it(`is one diagnostic and no session (${CASES.length} cases)`, async () => {
    for (const seed of CASES) {
      const rng = mulberry32(seed);
      const picked = pickSeed(rng, amp);
      const notJson = rng() < 0.5;
      const text = notJson ? `${picked.bytes.toString('utf8', 0, randInt(rng, 0, picked.bytes.length - 1))}${junkLine(rng)}` : pick(rng, [...NOT_RECORDS, '{"messages": []}', '{"id": 7}']);
      const why = replay('amp junk document', 'amp', seed, picked.name, [JSON.stringify(text.slice(-60))]);
      const home = await makeTempHome('agentwatch-fuzz-amp-junk-');
      try {
        const placed = amp.locate(home, picked, rng);
        await writePlaced(placed, picked, Buffer.from(text));
        const pass = await onePass(amp.source, makeCtx(home.env));
        const found = fileDiagnostics(pass.events, placed.file);
        expect(
          found.map((d) => d.code),
          why,
        ).toEqual([notJson ? 'E_JUNK_LINE' : 'E_SCHEMA']);
        expect(pass.sessions.size, why).toBe(0);
      } finally {
        await home.cleanup();
      }
    }
  });
});
