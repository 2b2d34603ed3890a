import { appendFile, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { claude } from '../../../src/sources/claude/index.js';
import { codex } from '../../../src/sources/codex/index.js';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { foldById, installFixture, makeCtx, passWithCache } from '../../helpers/source-harness.js';

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';

const linesOf = (events: readonly SessionEvent[], sessionId: string): SessionEvent['type'][] =>
  events.filter((e) => 'sessionId' in e && e.sessionId === sessionId && e.type !== 'diagnostic').map((e) => e.type);

/** Diagnostics by agent and code, as the fold counts them (an event may stand for several). */
const countsByCode = (events: readonly SessionEvent[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const e of events) if (e.type === 'diagnostic') counts[`${e.agent}:${e.code}`] = (counts[`${e.agent}:${e.code}`] ?? 0) + (e.count ?? 1);
  return counts;
};

describe('warm start from the discovery cache', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-warm-');
    await installFixture('claude', home.home);
    await installFixture('codex', home.home);
  });
  afterEach(() => home.cleanup());

  it('restores unchanged files without reading, reads only appended bytes, and ends with the cold-start state', async () => {
    const ctx = makeCtx(home.env);
    const cold = await passWithCache(claude, ctx);
    const main = path.join(home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
    await appendFile(main, '"}}\n' + JSON.stringify({ type: 'user', message: { role: 'user', content: 'one more' }, timestamp: '2026-03-10T11:00:00.000Z' }) + '\n');

    const warm = await passWithCache(claude, ctx);
    // Unchanged sidechain: a restore and nothing else.
    expect(linesOf(warm, 'agent-3f9a1c2e')).toEqual(['restore']);
    // Grown file: restore, then only the completed half line and the new prompt, then checkpoints.
    const mainTypes = linesOf(warm, SID);
    expect(mainTypes[0]).toBe('restore');
    expect(warm.filter((e) => e.type === 'turn' && e.sessionId === SID).map((e) => e.type === 'turn' && e.text)).toEqual(['', 'one more']);
    expect(mainTypes.at(-1)).toBe('checkpoint');
    // The bad lines sit before the cached offset: not read again, but counted as the cold start
    // counted them (each file's counts restored with its state).
    const restoredCounts = warm.filter((e) => e.type === 'diagnostic');
    expect(restoredCounts.length).toBeGreaterThan(0);
    expect(restoredCounts.every((e) => e.type === 'diagnostic' && e.line === undefined && e.count !== undefined)).toBe(true);
    expect(countsByCode(warm)).toEqual(countsByCode(cold));

    const full = await passWithCache(claude, makeCtx({ ...home.env, XDG_CACHE_HOME: path.join(home.root, 'other-cache') }));
    const { checkpoint: _w, ...warmState } = foldById(warm).get(SID)!;
    const { checkpoint: _f, ...fullState } = foldById(full).get(SID)!;
    expect(warmState).toEqual(fullState);
    expect(foldById(cold).get(SID)?.userMessages).toBe(fullState.userMessages - 1);
  });

  it('a file rewritten in place at the same size while nobody watched is reset and read from 0', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(claude, ctx);
    const main = path.join(home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
    const text = await readFile(main, 'utf8');
    const before = foldById(await passWithCache(claude, ctx)).get(SID)!.recentMessages.map((m) => m.text);
    expect(before.some((t) => t.includes('token-bucket'))).toBe(true);
    // Same byte count, other content, a later mtime: e.g. a restore from backup or a regenerated fixture.
    await writeFile(main, text.replaceAll('token-bucket', 'TOKEN-BUCKET'));
    await utimes(main, new Date(), new Date(Date.now() + 5000));
    const warm = await passWithCache(claude, ctx);
    expect(linesOf(warm, SID)[0]).toBe('reset');
    const after = foldById(warm).get(SID)!.recentMessages.map((m) => m.text);
    expect(after.some((t) => t.includes('TOKEN-BUCKET'))).toBe(true);
  });

  it('a file that shrank while nobody watched is reset and read from 0', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(claude, ctx);
    const main = path.join(home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
    const firstLine = (await readFile(main, 'utf8')).split('\n')[0];
    await writeFile(main, `${firstLine}\n`);
    const warm = await passWithCache(claude, ctx);
    expect(linesOf(warm, SID)[0]).toBe('reset');
    expect(linesOf(warm, SID)).not.toContain('restore');
    // Only the summary line is left, and its leaf message is gone: it names nothing here any more.
    expect(foldById(warm).get(SID)).toMatchObject({ agentName: '', userMessages: 0 });
  });

  it('a file replaced by another one (new inode, not shorter) while nobody watched is read from 0', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(claude, ctx);
    const main = path.join(home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`);
    const size = (await readFile(main)).length;
    const prompt = JSON.stringify({ type: 'user', message: { role: 'user', content: 'replacement' }, timestamp: '2026-03-10T12:00:00.000Z' });
    const replacement = `${main}.new`;
    await writeFile(replacement, `${prompt}\n`.repeat(Math.ceil(size / prompt.length) + 1));
    await rename(replacement, main);
    const warm = await passWithCache(claude, ctx);
    expect(linesOf(warm, SID)[0]).toBe('reset');
    expect(linesOf(warm, SID)).not.toContain('restore');
    expect(foldById(warm).get(SID)?.recentMessages.every((m) => m.text === 'replacement')).toBe(true);
  });

  it('forgets the rows of transcripts deleted while nobody watched, and only those', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(claude, ctx);
    await passWithCache(codex, ctx);
    const legacy = path.join(home.home, '.claude/projects/-home-dev-acme-api/agent-3f9a1c2e.jsonl');
    await rm(legacy);
    await passWithCache(claude, ctx);
    const cache = openDiscoveryCache(home.env);
    expect(cache.get(legacy)).toBeUndefined();
    expect(cache.get(path.join(home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`))?.sessionId).toBe(SID);
    // Another agent's rows are not this source's business.
    expect(cache.get(path.join(home.home, '.codex/sessions/2026/03/10/rollout-2026-03-10T09-20-11-0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a.jsonl'))).toBeDefined();
    cache.close();
  });

  it('codex keeps its session_meta id and thread name across a warm start', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(codex, ctx);
    const warm = await passWithCache(codex, ctx);
    const id = '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a';
    expect(linesOf(warm, id)[0]).toBe('restore');
    expect(foldById(warm).get(id)).toMatchObject({ agentName: 'JPY rounding bug', tokens: { input: 3000, output: 700, cacheCreation: 0, cacheRead: 12000 } });
    // The thread name the restored state already holds is not sent again (it would clear the
    // checkpoint, load the detail and rewrite the row on every warm start)...
    expect(linesOf(warm, id)).toEqual(['restore']);
  });

  it('a thread name that changed while nobody watched still reaches a restored session', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(codex, ctx);
    const index = path.join(home.home, '.codex/session_index.jsonl');
    const id = '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a';
    const renamed = (await readFile(index, 'utf8')).replaceAll('JPY rounding bug', 'JPY rounding, renamed');
    await writeFile(index, renamed);
    const warm = await passWithCache(codex, ctx);
    expect(linesOf(warm, id)).toEqual(['restore', 'meta', 'checkpoint']);
    expect(foldById(warm).get(id)).toMatchObject({ agentName: 'JPY rounding, renamed' });
    // ...and the renamed state is what the next warm start restores, as it is.
    const again = await passWithCache(codex, ctx);
    expect(linesOf(again, id)).toEqual(['restore']);
    expect(foldById(again).get(id)).toMatchObject({ agentName: 'JPY rounding, renamed' });
  });
});
