import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { claude } from '../../../src/sources/claude/index.js';
import { readEarlierLines } from '../../../src/sources/claude/earlier-lines.js';
import { foldById, makeCtx, passWithCache } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

/**
 * A user's rename (`custom-title`) names a Claude session over the generated
 * titles, and a `summary` names it only when its leaf is a message of the same file. A warm start
 * (or a monitor that let a parser at rest go) resumes a transcript past its start: what came
 * before the checkpoint still decides, as on a first read.
 */
const SID = '7c2e9a41-5b3d-4f6e-8a1c-2d4b6f8e0a13';
const CWD = '/home/dev/ledger';
const at = (minute: number): string => `2026-03-10T10:${String(minute).padStart(2, '0')}:00.000Z`;
const user = (uuid: string, minute: number, text: string): object => ({ type: 'user', cwd: CWD, sessionId: SID, version: '2.1.3', uuid, timestamp: at(minute), message: { role: 'user', content: text } });
const answer = (uuid: string, minute: number, text: string): object => ({
  type: 'assistant',
  cwd: CWD,
  sessionId: SID,
  uuid,
  timestamp: at(minute),
  message: { id: `msg_${uuid}`, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text }], usage: { input_tokens: 3, output_tokens: 4 } },
});
const jsonl = (records: readonly object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');

describe('claude titles across a resumed read', () => {
  let home: TempHome;
  let file: string;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-claude-titles-');
    const dir = path.join(home.home, '.claude', 'projects', '-home-dev-ledger');
    await mkdir(dir, { recursive: true });
    file = path.join(dir, `${SID}.jsonl`);
  });
  afterEach(() => home.cleanup());

  const nameAfter = async (events: readonly SessionEvent[]): Promise<string | undefined> => foldById(events).get(SID)?.agentName;

  it('a rename before the checkpoint wins over an ai-title appended after it', async () => {
    await writeFile(file, jsonl([user('u1', 1, 'Fix the ledger rounding'), answer('a1', 2, 'On it.'), { type: 'custom-title', customTitle: 'Ledger rounding', sessionId: SID }]));
    const ctx = makeCtx(home.env);
    expect(await nameAfter(await passWithCache(claude, ctx))).toBe('Ledger rounding');
    await appendFile(file, jsonl([user('u2', 3, 'And the tests'), answer('a2', 4, 'Done.'), { type: 'ai-title', aiTitle: 'Rounding fix in ledger module', sessionId: SID }]));
    const warm = await passWithCache(claude, ctx);
    expect(warm.find((e) => e.type === 'restore')).toBeDefined();
    expect(await nameAfter(warm)).toBe('Ledger rounding');
  });

  it('without a rename, the appended ai-title names the session', async () => {
    await writeFile(file, jsonl([user('u1', 1, 'Fix the ledger rounding'), answer('a1', 2, 'On it.'), { type: 'ai-title', aiTitle: 'Ledger rounding', sessionId: SID }]));
    const ctx = makeCtx(home.env);
    await passWithCache(claude, ctx);
    await appendFile(file, jsonl([{ type: 'ai-title', aiTitle: 'Ledger rounding and tests', sessionId: SID }]));
    expect(await nameAfter(await passWithCache(claude, ctx))).toBe('Ledger rounding and tests');
  });

  it('a summary appended after the checkpoint names the session when its leaf came before it, and not when the leaf is another file\'s', async () => {
    await writeFile(file, jsonl([user('u1', 1, 'Fix the ledger rounding'), answer('a1', 2, 'On it.')]));
    const ctx = makeCtx(home.env);
    expect(await nameAfter(await passWithCache(claude, ctx))).toBe('');
    await appendFile(file, jsonl([{ type: 'summary', summary: 'Some other session', leafUuid: 'elsewhere-1' }]));
    expect(await nameAfter(await passWithCache(claude, ctx))).toBe('');
    await appendFile(file, jsonl([{ type: 'summary', summary: 'Ledger rounding fix', leafUuid: 'a1' }]));
    expect(await nameAfter(await passWithCache(claude, ctx))).toBe('Ledger rounding fix');
  });

  it('a summary appended after the checkpoint does not replace a rename made before it', async () => {
    await writeFile(file, jsonl([user('u1', 1, 'Fix the ledger rounding'), { type: 'custom-title', customTitle: 'Mine', sessionId: SID }, answer('a1', 2, 'On it.')]));
    const ctx = makeCtx(home.env);
    await passWithCache(claude, ctx);
    await appendFile(file, jsonl([{ type: 'summary', summary: 'Ledger rounding fix', leafUuid: 'a1' }]));
    expect(await nameAfter(await passWithCache(claude, ctx))).toBe('Mine');
  });
});

describe('readEarlierLines', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-earlier-lines-');
  });
  afterEach(() => home.cleanup());

  it('finds uuids and a rename across 1 MiB chunk edges, inside multi-MB lines, and only before `end`', async () => {
    const file = path.join(home.root, 'long.jsonl');
    // As Claude Code writes them: the uuid after the (here multi-MB) message.
    const big = (uuid: string, bytes: number): string => JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(bytes) }] }, uuid });
    const MIB = 1024 * 1024;
    // The first line's uuid key starts 10 bytes before the first chunk's end, so it is cut there.
    const edgeLine = big('u-first', MIB - 10 - big('u-first', 0).indexOf('"uuid":"'));
    expect(edgeLine.indexOf('"uuid":"')).toBe(MIB - 10);
    const rename = JSON.stringify({ type: 'custom-title', customTitle: 'Renamed', sessionId: SID });
    const text = [edgeLine, rename, big('u-long', 3 * MIB + 17), JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, uuid: 'u-short' })].map((l) => `${l}\n`).join('');
    await writeFile(file, `${text}${jsonl([{ type: 'user', uuid: 'u-after', message: { role: 'user', content: 'later' } }])}`);
    const earlier = readEarlierLines(file, Buffer.byteLength(text));
    expect(earlier?.renamed).toBe(true);
    expect(earlier?.uuids).toEqual(['u-first', 'u-long', 'u-short']);
    // Message text that mentions a rename is not one (its quotes are escaped).
    const quoted = path.join(home.root, 'quoted.jsonl');
    // A file written with spaces after the colons (not Claude Code's own, but valid JSON) reads the same.
    const mention = `${jsonl([{ type: 'user', uuid: 'q1', message: { role: 'user', content: '{"type":"custom-title","customTitle":"no"}' } }, { type: 'custom-title', customTitle: '', sessionId: SID }])}{"type": "user", "uuid": "q2"}\n`;
    await writeFile(quoted, mention);
    expect(readEarlierLines(quoted, Buffer.byteLength(mention))).toEqual({ renamed: false, uuids: ['q1', 'q2'] });
    expect(readEarlierLines(path.join(home.root, 'missing.jsonl'), 10)).toBeUndefined();
  });
});
