import fs from 'node:fs';
import { appendFile, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent, SessionState } from '../../../src/core/session.js';
import { claude } from '../../../src/sources/claude/index.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { parentTranscriptOf } from '../../../src/sources/claude/paths.js';
import { diagnosticsOf, FIXTURES, foldById, makeCtx, parseFile, passWithCache } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

// Claude Code records a forked sub-agent's inherited conversation at the start of its transcript:
// copies of the parent's lines, with their uuids, message ids, usage and timestamps; 2.1.118+ fork
// sub-agents write a `fork-context-ref` pointer instead (fixtures/claude/subagent-copies/README.md).
const PARENT = 'd4c3b2a1-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
const COMPACT = 'agent-acompact-7f3e2d1c0b9a8f76';
const FORK = 'agent-a4b5c6d7e8f90a1b2';
const PROJECT = '-home-dev-app';
const APP = path.join(FIXTURES, 'claude', 'subagent-copies', PROJECT);

/** When each file was made in the session the fixture stands for (a checkout makes them all now). */
const PARENT_BORN = Date.parse('2026-10-05T09:00:00.000Z');
const COMPACT_BORN = Date.parse('2026-10-05T10:00:00.000Z');
const FORK_BORN = Date.parse('2026-10-05T10:02:00.000Z');

const PARENT_TOKENS = { input: 20, output: 1400, cacheCreation: 5100, cacheRead: 6000 };
/** The compaction sub-agent's own prompt and answer; its copies add the parent's first two answers. */
const COMPACT_OWN = { input: 3, output: 900, cacheCreation: 1500, cacheRead: 4800 };
const COMPACT_ALL = { input: 19, output: 2100, cacheCreation: 6300, cacheRead: 8800 };
const FORK_OWN = { input: 5, output: 250, cacheCreation: 600, cacheRead: 2100 };

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-claude-subagent-copies-');
});
afterEach(() => home.cleanup());

/** A copy of the fixture's project folder under `root`; its folder. */
const arrange = async (root: string): Promise<string> => {
  const folder = path.join(root, PROJECT);
  await mkdir(root, { recursive: true });
  await cp(APP, folder, { recursive: true });
  return folder;
};

const subagentFile = (folder: string, agentId: string): string => path.join(folder, PARENT, 'subagents', `${agentId}.jsonl`);

const parseParent = (folder: string): Promise<SessionEvent[]> => {
  const file = path.join(folder, `${PARENT}.jsonl`);
  return parseFile(createClaudeParser(file, { kind: 'main', sessionId: PARENT }, false, undefined, PARENT_BORN), file);
};

const parseSubagent = (folder: string, agentId: string, born: number | undefined): Promise<SessionEvent[]> => {
  const file = subagentFile(folder, agentId);
  return parseFile(createClaudeParser(file, { kind: 'subagent', sessionId: agentId, parentId: PARENT }, false, undefined, born), file);
};

const stateOf = async (events: Promise<SessionEvent[]>, sessionId: string): Promise<SessionState | undefined> => foldById(await events).get(sessionId);

describe("a Claude sub-agent that starts with copies of its parent's conversation", () => {
  it("counts only its own spend and messages, so the parent's rolled-up totals count the copies once", async () => {
    const folder = await arrange(home.root);
    const compact = await stateOf(parseSubagent(folder, COMPACT, COMPACT_BORN), COMPACT);
    expect(compact?.tokens).toEqual(COMPACT_OWN);
    expect(compact).toMatchObject({ userMessages: 1, assistantMessages: 1, lastTurn: 'assistant' });
    expect(compact?.recentMessages.map((m) => m.text)).toEqual([
      'Your task is to create a detailed summary of the conversation so far.',
      '<summary>Billing split into invoices and payments; tests added.</summary>',
    ]);

    // The parent alone, and with its two sub-agents rolled up: each adds only its own lines' spend.
    const parentEvents = await parseParent(folder);
    expect(foldById(parentEvents).get(PARENT)?.tokens).toEqual(PARENT_TOKENS);
    const all = foldById([...parentEvents, ...(await parseSubagent(folder, COMPACT, COMPACT_BORN)), ...(await parseSubagent(folder, FORK, FORK_BORN))]);
    const parent = all.get(PARENT);
    expect(parent?.tokens).toEqual(PARENT_TOKENS);
    expect(parent?.subagents.sessions).toBe(2);
    expect(parent?.subagents.tokens).toEqual({
      input: COMPACT_OWN.input + FORK_OWN.input,
      output: COMPACT_OWN.output + FORK_OWN.output,
      cacheCreation: COMPACT_OWN.cacheCreation + FORK_OWN.cacheCreation,
      cacheRead: COMPACT_OWN.cacheRead + FORK_OWN.cacheRead,
    });
  });

  it('counts every line when the parent is gone or does not hold them, with no creation time, or when the file is not older than its first line (fails open)', async () => {
    const gone = await arrange(path.join(home.root, 'gone'));
    await rm(path.join(gone, `${PARENT}.jsonl`));
    expect((await stateOf(parseSubagent(gone, COMPACT, COMPACT_BORN), COMPACT))?.tokens).toEqual(COMPACT_ALL);

    // A parent transcript without these uuids: not where the lines came from.
    const other = await arrange(path.join(home.root, 'other'));
    const unrelated = (await readFile(path.join(other, `${PARENT}.jsonl`), 'utf8')).replaceAll('f1000000-', 'c9000000-');
    await writeFile(path.join(other, `${PARENT}.jsonl`), unrelated);
    expect((await stateOf(parseSubagent(other, COMPACT, COMPACT_BORN), COMPACT))?.tokens).toEqual(COMPACT_ALL);

    const folder = await arrange(path.join(home.root, 'times'));
    // The file system does not say when the file was created.
    expect((await stateOf(parseSubagent(folder, COMPACT, 0), COMPACT))?.tokens).toEqual(COMPACT_ALL);
    // Created as its first line was written: a transcript written as it went, not a copy.
    const asWritten = await stateOf(parseSubagent(folder, COMPACT, Date.parse('2026-10-05T09:00:30.000Z')), COMPACT);
    expect(asWritten?.tokens).toEqual(COMPACT_ALL);
    expect(asWritten?.assistantMessages).toBe(3);
  });

  it('a sub-agent written as its lines were (the usual one) does not read its parent', async () => {
    const folder = await arrange(home.root);
    const parentFile = path.join(folder, `${PARENT}.jsonl`);
    const opened: string[] = [];
    const original = fs.openSync;
    fs.openSync = ((file: fs.PathLike, ...rest: unknown[]) => {
      if (typeof file === 'string') opened.push(file);
      return (original as (...args: unknown[]) => number)(file, ...rest);
    }) as typeof fs.openSync;
    syncBuiltinESMExports();
    try {
      expect((await stateOf(parseSubagent(folder, FORK, FORK_BORN), FORK))?.tokens).toEqual(FORK_OWN);
      expect(opened).not.toContain(parentFile);
      // The counter sees the read a copy's check makes.
      await parseSubagent(folder, COMPACT, COMPACT_BORN);
      expect(opened).toContain(parentFile);
    } finally {
      fs.openSync = original;
      syncBuiltinESMExports();
    }
  });

  it("finds the parent's main transcript from a sub-agent's path, a workflow agent's too", () => {
    const project = path.join('/p', PROJECT);
    expect(parentTranscriptOf(path.join(project, PARENT, 'subagents', `${COMPACT}.jsonl`), PARENT)).toBe(path.join(project, `${PARENT}.jsonl`));
    expect(parentTranscriptOf(path.join(project, PARENT, 'subagents', 'workflows', 'run-1', 'agent-a1.jsonl'), PARENT)).toBe(path.join(project, `${PARENT}.jsonl`));
    expect(parentTranscriptOf(path.join(project, 'other', 'subagents', 'agent-a1.jsonl'), PARENT)).toBeUndefined();
  });

  it('a fork-context-ref record (2.1.118+ fork sub-agents) is known: no diagnostic, nothing counted for it', async () => {
    const folder = await arrange(home.root);
    const events = await parseSubagent(folder, FORK, FORK_BORN);
    expect(diagnosticsOf(events)).toEqual([]);
    expect(foldById(events).get(FORK)).toMatchObject({ tokens: FORK_OWN, userMessages: 1, assistantMessages: 1 });
  });

  it('through the source, on a tree whose files were all created now, and across warm starts', async () => {
    // Every file of a checkout (or a restored backup) is created now, long after its lines: every
    // sub-agent is a candidate, and only the leading lines the parent holds are copies.
    const projects = path.join(home.home, '.claude', 'projects');
    const folder = await arrange(projects);
    const ctx = makeCtx(home.env);
    const rolledUp = { input: 8, output: 1150, cacheCreation: 2100, cacheRead: 6900 };

    const cold = await passWithCache(claude, ctx);
    expect(diagnosticsOf(cold)).toEqual([]);
    const first = foldById(cold);
    expect(first.get(PARENT)?.tokens).toEqual(PARENT_TOKENS);
    expect(first.get(PARENT)?.subagents.tokens).toEqual(rolledUp);
    expect(first.get(COMPACT)?.tokens).toEqual(COMPACT_OWN);

    // Restored from the discovery cache: the same totals, nothing read again.
    const warm = await passWithCache(claude, ctx);
    expect(warm.filter((e) => e.type === 'restore').length).toBe(3);
    expect(foldById(warm).get(PARENT)?.subagents.tokens).toEqual(rolledUp);

    // A line the sub-agent writes later is read from the checkpoint on, and counts.
    const later = {
      parentUuid: 'f2000000-0000-4000-8000-000000000002',
      isSidechain: true,
      sessionId: PARENT,
      agentId: COMPACT.slice('agent-'.length),
      type: 'assistant',
      message: { model: 'claude-sonnet-4-6', id: 'msg_01T', role: 'assistant', content: [{ type: 'text', text: 'Summary saved.' }], usage: { input_tokens: 1, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 6300 } },
      uuid: 'f2000000-0000-4000-8000-000000000003',
      timestamp: '2026-10-05T10:00:12.000Z',
    };
    await appendFile(subagentFile(folder, COMPACT), `${JSON.stringify(later)}\n`);
    const resumed = foldById(await passWithCache(claude, ctx));
    expect(resumed.get(COMPACT)?.tokens).toEqual({ input: 4, output: 910, cacheCreation: 1500, cacheRead: 11_100 });
    expect(resumed.get(PARENT)?.subagents.tokens).toEqual({ input: 9, output: 1160, cacheCreation: 2100, cacheRead: 13_200 });
  });
});
