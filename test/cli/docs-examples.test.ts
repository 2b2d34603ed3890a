import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../src/search/query.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { installAll } from '../search/helpers.js';

/**
 * The examples of README.md, docs/sessions.md and docs/search.md are what the built CLI prints:
 * `sessions --demo` (every column but the relative LAST ACTIVITY, which depends on how long the
 * run took, and that one's form), `search` on the fixtures of every agent (exactly; its JSON but
 * the score, which depends on all the index holds). Needs `npm run build` first.
 */
const doc = (file: string): string => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The lines printed after `$ agentwatch <command>` in the first fenced block of `text` that shows that command. */
const example = (text: string, command: string): string[] => {
  const start = text.indexOf(`\n$ agentwatch ${command}\n`);
  expect(start, `an example of agentwatch ${command}`).toBeGreaterThan(-1);
  const body = text.slice(start + `\n$ agentwatch ${command}\n`.length);
  return body.slice(0, body.indexOf('```')).trimEnd().split('\n');
};

/** The ```json block following `heading` in `text`. */
const jsonAfter = (text: string, heading: string): unknown => {
  const from = text.indexOf(heading);
  const start = text.indexOf('```json\n', from) + '```json\n'.length;
  return JSON.parse(text.slice(start, text.indexOf('```', start)));
};

let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

/** A table row without its last column (LAST ACTIVITY: "3s ago"), and that column's form. */
const withoutAge = (line: string): string => line.replace(/\s+(\d+[smhd] ago|-)$/, '');

describe('documented examples are the real output', { timeout: 90_000 }, () => {
  it.each(['README.md', 'docs/sessions.md'])('%s: agentwatch sessions --demo', async (file) => {
    home = await makeTempHome('agentwatch-docs-sessions-');
    const run = await runCli(['sessions', '--demo'], { env: home.env });
    expect(run.code).toBe(0);
    const real = run.stdout.trimEnd().split('\n');
    const shown = example(doc(file), 'sessions --demo');
    // The same header and rows; rows whose sessions moved in the same second may swap places
    // from run to run (newest first, by the millisecond), so they are compared as a set.
    expect(shown[0]).toEqual(real[0]);
    expect(shown.slice(1).map(withoutAge).sort()).toEqual(real.slice(1).map(withoutAge).sort());
    for (const line of shown.slice(1)) expect(line).toMatch(/ \d+[smhd] ago$/);
  });

  it('docs/search.md: agentwatch search \'token bucket\', as text and as JSON', async () => {
    home = await installAll('agentwatch-docs-search-');
    const text = await runCli(['search', 'token bucket'], { env: home.env, timeoutMs: 60_000 });
    expect(text.code).toBe(0);
    expect(example(doc('docs/search.md'), "search 'token bucket'")).toEqual(text.stdout.trimEnd().split('\n'));
    const json = await runCli(['search', 'token bucket', '--json'], { env: home.env, timeoutMs: 60_000 });
    const [real] = JSON.parse(json.stdout) as SearchResult[];
    const [shown] = jsonAfter(doc('docs/search.md'), '## JSON') as SearchResult[];
    expect({ ...shown, score: 0 }).toEqual({ ...real, score: 0 });
    expect(shown?.score).toBeGreaterThan(0);
  });
});
