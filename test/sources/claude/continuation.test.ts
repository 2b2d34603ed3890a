import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../../src/core/session.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
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
