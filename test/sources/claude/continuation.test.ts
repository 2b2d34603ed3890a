import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../../src/core/session.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { createFileTracker } from '../../../src/sources/internal/file-tracker.js';
import { runCli } from '../../helpers/cli.js';
import { FIXTURES, foldById, parseFile } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

// Claude Code 1.0.x continued a session (`--resume`, `-c`) in a new transcript that starts with
// copies of the earlier one's lines, which keep its sessionId (fixtures/claude/continued/README.md).
const A = '0c5e2b7a-41d3-4f8e-9a6b-3d2c1e0f9a81';
const B = '5b9d3e1c-7a24-4c6f-8e0d-1f2a3b4c5d62';
const SHOP = path.join(FIXTURES, 'claude', 'continued', '-home-dev-shop');

// A throwaway HOME per test: copies of the fixtures in other arrangements, and the CLI's HOME.
let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-claude-copies-');
});
afterEach(() => home.cleanup());

/** The transcripts `ids` of the fixture folder `fixture` copied alone into a new folder `name`. */
const arrange = async (name: string, fixture: string, ids: readonly string[]): Promise<string> => {
  const folder = path.join(home.root, name);
  await mkdir(folder);
  for (const id of ids) await cp(path.join(fixture, `${id}.jsonl`), path.join(folder, `${id}.jsonl`));
  return folder;
};

const parse = async (file: string, sessionId: string) =>
  foldById(await parseFile(createClaudeParser(file, { kind: 'main', sessionId }, false), file)).get(sessionId);

describe('a continued Claude session (1.0.x: copies of the earlier transcript at its start)', () => {
  it('counts only its own messages and spend; the copies keep its history; the earlier session is unchanged', async () => {
    const continued = await parse(path.join(SHOP, `${B}.jsonl`), B);
    expect(continued?.tokens).toEqual({ input: 5, output: 7, cacheCreation: 40, cacheRead: 1230 });
    expect(continued?.userMessages).toBe(1);
    expect(continued?.assistantMessages).toBe(1);
    // Its own messages; the copied ones are the earlier session's (as a branch's are).
    expect(continued?.recentMessages.map((m) => m.text)).toEqual(['add 20 to it', '30']);
    expect(continued?.createdAt).toBe(Date.parse('2025-08-01T13:46:02.118Z'));
    expect(continued?.lastTurn).toBe('assistant');

    const earlier = await parse(path.join(SHOP, `${A}.jsonl`), A);
    expect(earlier?.tokens).toEqual({ input: 7, output: 11, cacheCreation: 1230, cacheRead: 1200 });
    expect(earlier).toMatchObject({ userMessages: 2, assistantMessages: 2 });
  });

  it('counts the copies when the earlier transcript is gone, or does not hold them (fails open)', async () => {
    const alone = await arrange('alone', SHOP, [B]);
    expect((await parse(path.join(alone, `${B}.jsonl`), B))?.tokens).toEqual({ input: 12, output: 18, cacheCreation: 1270, cacheRead: 2430 });

    // A transcript named as the lines' session, but without their uuids: another session's lines
    // written into this file (not copies), so they count here.
    const other = await arrange('other', SHOP, [B]);
    const unrelated = (await readFile(path.join(SHOP, `${A}.jsonl`), 'utf8')).replaceAll('a1000000-', 'c3000000-');
    await writeFile(path.join(other, `${A}.jsonl`), unrelated);
    expect((await parse(path.join(other, `${B}.jsonl`), B))?.assistantMessages).toBe(3);
  });

  it('`sessions --json` shows each response once across the two sessions', async () => {
    const projects = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
    await cp(SHOP, projects, { recursive: true });
    const run = await runCli(['sessions', '--all', '--json'], { env: home.env, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const listed = new Map((JSON.parse(run.stdout) as SessionDetail[]).map((s) => [s.session_id, s]));
    expect(listed.get(A)).toMatchObject({ input_tokens: 7, output_tokens: 11, user_messages: 2, assistant_messages: 2 });
    expect(listed.get(B)).toMatchObject({ input_tokens: 5, output_tokens: 7, user_messages: 1, assistant_messages: 1, total_messages: 2 });
  });
});

// Claude Code 2.1.x: a background session starts with copies of the foreground one, every line it
// writes marked sessionKind "bg" (fixtures/claude/background/README.md).
const FG = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const BG = '1f2e3d4c-5b6a-4978-8a69-5b4c3d2e1f00';
const API = path.join(FIXTURES, 'claude', 'background', '-home-dev-api');

describe('a backgrounded Claude session (2.1.x: sessionKind "bg", copies of the foreground session first)', () => {
  it('counts only its own messages and spend, though a later fork of it holds its lines too', async () => {
    const background = await parse(path.join(API, `${BG}.jsonl`), BG);
    expect(background?.tokens).toEqual({ input: 12, output: 900, cacheCreation: 700, cacheRead: 9500 });
    expect(background).toMatchObject({ userMessages: 1, assistantMessages: 1, lastTurn: 'assistant' });
    expect(background?.recentMessages.map((m) => m.text)).toEqual(['run it against staging and report', 'Staging backfill done: 48,113 rows.']);
    expect(background?.createdAt).toBe(Date.parse('2026-11-24T09:00:00.000Z'));

    const foreground = await parse(path.join(API, `${FG}.jsonl`), FG);
    expect(foreground?.tokens).toEqual({ input: 18, output: 1000, cacheCreation: 9500, cacheRead: 9000 });
    expect(foreground).toMatchObject({ userMessages: 2, assistantMessages: 2 });
  });

  it('counts everything when the foreground transcript is gone (fails open)', async () => {
    const alone = await arrange('alone', API, [BG]);
    expect((await parse(path.join(alone, `${BG}.jsonl`), BG))?.tokens).toEqual({ input: 30, output: 1900, cacheCreation: 10200, cacheRead: 18500 });
  });

  it('a session without the marker is never trimmed, though another transcript starts as it does', async () => {
    // The foreground session itself: the background one holds all of its lines.
    const only = await arrange('pair', API, [FG, BG]);
    expect((await parse(path.join(only, `${FG}.jsonl`), FG))?.assistantMessages).toBe(2);
  });
});

// Claude Code 2.1.x: an interactive fork (`--resume <id> --fork-session`) starts with unmarked
// copies of the conversation so far (fixtures/claude/forked/README.md). A checkout creates every
// file at once; a real fork's file is created later, which each test gives it.
const ORIGINAL = '3e8a1f40-6b2c-4d7e-9f15-2a4c6e8b0d13';
const FORK = '8b7c6d5e-4f3a-4b2c-9d1e-0f2a3b4c5d6e';
const FORK_OF_FORK = 'c1d2e3f4-a5b6-4c7d-8e9f-a0b1c2d3e4f5';
const WEB = path.join(FIXTURES, 'claude', 'forked', '-home-dev-web');
const MINUTE = 60_000;

/** `sessionId`'s transcript in `folder`, parsed as if its file had been created `later` ms after now. */
const parseCreated = async (folder: string, sessionId: string, later: number) => {
  const file = path.join(folder, `${sessionId}.jsonl`);
  return foldById(await parseFile(createClaudeParser(file, { kind: 'main', sessionId }, false, undefined, Date.now() + later), file)).get(sessionId);
};

describe('an interactive fork of a Claude session (2.1.x --fork-session: unmarked copies first)', () => {
  it('counts only its own messages and spend; the copies keep its history; the original is unchanged', async () => {
    const folder = await arrange('fork', WEB, [ORIGINAL, FORK]);
    const fork = await parseCreated(folder, FORK, 2 * MINUTE);
    expect(fork?.tokens).toEqual({ input: 5, output: 350, cacheCreation: 800, cacheRead: 5600 });
    expect(fork).toMatchObject({ userMessages: 1, assistantMessages: 1, lastTurn: 'assistant' });
    expect(fork?.recentMessages.map((m) => m.text)).toEqual(['use a cookie instead', 'Switched to a `theme` cookie.']);
    expect(fork?.createdAt).toBe(Date.parse('2026-11-25T14:00:00.000Z'));

    // The original, created first, counts all of its own lines, those the fork copied included.
    const original = await parseCreated(folder, ORIGINAL, 0);
    expect(original?.tokens).toEqual({ input: 18, output: 750, cacheCreation: 6300, cacheRead: 10600 });
    expect(original).toMatchObject({ userMessages: 3, assistantMessages: 3 });
  });

  it('a fork of a fork counts only its own lines: the copies of both earlier sessions are theirs', async () => {
    const folder = await arrange('chain', WEB, [ORIGINAL, FORK, FORK_OF_FORK]);
    const last = await parseCreated(folder, FORK_OF_FORK, 4 * MINUTE);
    expect(last?.tokens).toEqual({ input: 3, output: 120, cacheCreation: 400, cacheRead: 6400 });
    expect(last).toMatchObject({ userMessages: 1, assistantMessages: 1 });
  });

  it('counts everything when the original is gone, or was created at the same time (fails open)', async () => {
    const alone = await arrange('alone', WEB, [FORK]);
    expect((await parseCreated(alone, FORK, 2 * MINUTE))?.tokens).toEqual({ input: 17, output: 850, cacheCreation: 6400, cacheRead: 10600 });

    // Laid down together (a checkout, a restored backup): nothing tells the copy from its original.
    const together = await arrange('together', WEB, [ORIGINAL, FORK]);
    expect((await parseCreated(together, FORK, 0))?.assistantMessages).toBe(3);
    // Not older than the lines it starts with: a transcript written as they were, not a copy.
    const fresh = await arrange('fresh', WEB, [ORIGINAL, FORK]);
    const firstLineAt = Date.parse('2026-11-25T14:00:00.000Z');
    const file = path.join(fresh, `${FORK}.jsonl`);
    const asWritten = foldById(await parseFile(createClaudeParser(file, { kind: 'main', sessionId: FORK }, false, undefined, firstLineAt + 5_000), file)).get(FORK);
    expect(asWritten?.assistantMessages).toBe(3);
  });

  it('the file tracker hands each parser the creation time of its file', async () => {
    const folder = await arrange('tracked', WEB, [FORK]);
    const file = path.join(folder, `${FORK}.jsonl`);
    const born: (number | undefined)[] = [];
    const tracker = createFileTracker({
      agent: 'claude',
      createParser: (at, sessionId, resumed, restored, created) => {
        born.push(created);
        return createClaudeParser(at, { kind: 'main', sessionId }, resumed, restored, created);
      },
      emit: () => undefined,
      sideMeta: () => undefined,
    });
    await tracker.sync(file, FORK);
    expect(born).toEqual([(await stat(file)).birthtimeMs]);
    expect(born[0]).toBeGreaterThan(0);
  });
});
