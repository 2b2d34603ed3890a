import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS, type AgentKind } from '../../src/core/agents.js';
import type { TempHome } from '../helpers/temp-home.js';
import type { SqliteFixture } from '../sources/sqlite/helpers.js';
import { DB_PATHS, installAll, search } from './helpers.js';

/**
 * Sources hand the search index the whole text of every message (CONTRACTS: turn.text is never
 * cut at the source): a word said 6,000 characters into a long prompt or answer is found, for
 * every agent. Long lines are parsed with their other long strings cut, never the message text.
 */

/** A prompt and an answer of each agent's fixture, as written there. */
const SAID: Readonly<Record<AgentKind, { readonly user: string; readonly assistant: string }>> = {
  amp: { user: 'The ws reconnect test flakes on CI', assistant: 'The test sleeps 10ms; I will replace it with a channel wait.' },
  claude: { user: 'Add a token-bucket rate limiter to server.go', assistant: 'Added a 10 req/s token bucket in server.go.' },
  codex: { user: 'Why does invoice rounding fail for JPY?', assistant: 'JPY has 0 minor units' },
  copilot: { user: 'Round totals half-even in ledger.ts', assistant: 'Totals now round half-even; tests pass.' },
  crush: { user: 'Add a sourdough recipe page', assistant: 'Added the sourdough page at /recipes/sourdough.' },
  cursor: { user: 'Debounce the search box by 300ms', assistant: 'Wrapped onChange in a 300ms debounce.' },
  droid: { user: 'Paginate the orders endpoint', assistant: 'Added cursor pagination to routes/orders.ts.' },
  gemini: { user: 'Add a 7-day forecast endpoint', assistant: 'Added GET /forecast returning 7 days.' },
  goose: { user: 'Add a watering schedule', assistant: 'Added schedule.py: water every other morning.' },
  grok: { user: 'Write index.html with a hero section', assistant: 'Writing it now.' },
  kilo: { user: 'Show a banner when navigator.onLine is false', assistant: 'Added OfflineBanner.tsx and wired it into App.' },
  kimi: { user: 'Add PDF export to invoices', assistant: 'Created export/pdf.go with a stub exporter and tests.' },
  opencode: { user: 'The footer overlaps on mobile', assistant: 'The footer is sticky now; it no longer covers the content.' },
  qwen: { user: 'List products with zero stock', assistant: 'Added db/zero_stock.sql.' },
  pi: { user: 'Rename todo.md to TODO.md and fix links', assistant: 'Checking references first.' },
};

const FILLER = 'lorem ipsum dolor sit amet consectetur '.repeat(160);
/** A word only the far end of the long message says. */
const tailWord = (agent: AgentKind, role: string): string => `${agent}${role}farendword`;
const lengthen = (phrase: string, agent: AgentKind, role: string): string => `${phrase} ${FILLER}${tailWord(agent, role)}`;

const filesUnder = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(file)));
    else if (entry.isFile() && /\.(jsonl?|md)$/.test(entry.name)) out.push(file);
  }
  return out;
};

/** Every fixture file / database row holding `phrase` now holds the long message instead. */
const replaceEverywhere = async (t: TempHome, agent: AgentKind, phrase: string, long: string): Promise<number> => {
  if (agent in DB_PATHS) {
    const db = new Database(DB_PATHS[agent as SqliteFixture](t.env));
    try {
      if (agent === 'crush') return db.prepare(`UPDATE messages SET parts = replace(parts, ?, ?) WHERE instr(parts, ?) > 0`).run(phrase, long, phrase).changes;
      if (agent === 'goose') return db.prepare(`UPDATE messages SET content_json = replace(content_json, ?, ?) WHERE instr(content_json, ?) > 0`).run(phrase, long, phrase).changes;
      if (agent === 'cursor') return db.prepare(`UPDATE cursorDiskKV SET value = replace(CAST(value AS TEXT), ?, ?) WHERE instr(CAST(value AS TEXT), ?) > 0`).run(phrase, long, phrase).changes;
      return db.prepare(`UPDATE part SET data = replace(data, ?, ?) WHERE instr(data, ?) > 0`).run(phrase, long, phrase).changes;
    } finally {
      db.close();
    }
  }
  let changed = 0;
  for (const file of await filesUnder(t.home)) {
    if (file.includes(`${path.sep}.cache${path.sep}`)) continue;
    const text = await readFile(file, 'utf8');
    if (!text.includes(phrase)) continue;
    const { mtime } = await stat(file);
    await writeFile(file, text.replaceAll(phrase, long));
    // Keep amp's and grok's notion of when the session happened.
    await import('node:fs/promises').then((fs) => fs.utimes(file, mtime, mtime));
    changed += 1;
  }
  return changed;
};

let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

describe('the search index holds the whole text of long messages', () => {
  it('finds a word 6,000 characters into a prompt and into an answer, for every agent', { timeout: 60_000 }, async () => {
    const t = (home = await installAll());
    for (const agent of AGENT_KINDS) {
      for (const role of ['user', 'assistant'] as const) {
        const changed = await replaceEverywhere(t, agent, SAID[agent][role], lengthen(SAID[agent][role], agent, role));
        expect(changed, `${agent} ${role}: the fixture says "${SAID[agent][role]}"`).toBeGreaterThan(0);
      }
    }
    const words = AGENT_KINDS.flatMap((agent) => [tailWord(agent, 'user'), tailWord(agent, 'assistant')]);
    const { code, results, stderr } = await search(t, [words.join(' OR '), '--limit', '50', '--json']);
    expect(code, stderr).toBe(0);
    const missed: string[] = [];
    for (const agent of AGENT_KINDS) {
      for (const role of ['user', 'assistant'] as const) {
        const word = tailWord(agent, role);
        const marked = results.some((r) => r.agent === agent && r.snippets.some((s) => s.role === role && s.text.includes(`[${word}]`)));
        if (!marked) missed.push(`${agent} ${role}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('never holds tool output or thinking', { timeout: 60_000 }, async () => {
    const t = (home = await installAll());
    const unsaid = {
      'claude tool result': ['claude', 'The file /home/dev/acme-api/server.go has been updated.'],
      'amp thinking': ['amp', 'Look at the test first.'],
      'opencode reasoning': ['opencode', 'The footer is position: fixed.'],
    } as const;
    for (const [what, [agent, phrase]] of Object.entries(unsaid)) {
      expect(await replaceEverywhere(t, agent, phrase, `${phrase} wombatnotsaid`), what).toBeGreaterThan(0);
    }
    const { code, results } = await search(t, ['wombatnotsaid', '--json']);
    expect(code).toBe(0);
    expect(results).toEqual([]);
  });
});
