import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Source } from '../../../src/sources/contracts.js';
import type { SessionEvent } from '../../../src/core/session.js';
import { claude } from '../../../src/sources/claude/index.js';
import { codex } from '../../../src/sources/codex/index.js';
import type { SourceCtx } from '../../../src/sources/internal/options.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { foldById, installFixture, makeCtx, waitFor } from '../../helpers/source-harness.js';

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
const CID = '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a';

/** One one-shot pass of a real source over the temp HOME. */
const pass = async (source: Source, home: TempHome): Promise<SessionEvent[]> => {
  const events: SessionEvent[] = [];
  let done = false;
  const ctx: SourceCtx = { ...makeCtx(home.env), watch: false };
  const sub = source(ctx).subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
  await waitFor('pass', () => done);
  sub.unsubscribe();
  return events;
};

/** A Windows editor's save of the same transcript: byte-order mark, CRLF line ends. */
const windowsSave = async (file: string): Promise<void> => {
  const text = await readFile(file, 'utf8');
  await writeFile(file, `\ufeff${text.replaceAll('\n', '\r\n')}`);
};

describe('transcripts with a byte-order mark and CRLF line ends', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-bom-');
    await installFixture('claude', home.home);
    await installFixture('codex', home.home);
  });
  afterEach(() => home.cleanup());

  it('read exactly like the plain files, first record included', async () => {
    const plainClaude = foldById(await pass(claude, home)).get(SID)!;
    const plainCodex = foldById(await pass(codex, home)).get(CID)!;
    expect(plainCodex.cwd).toBe('/home/dev/billing');

    await windowsSave(path.join(home.home, '.claude/projects/-home-dev-acme-api', `${SID}.jsonl`));
    await windowsSave(path.join(home.home, '.codex/sessions/2026/03/10', `rollout-2026-03-10T09-20-11-${CID}.jsonl`));
    const { checkpoint: _c1, path: _p1, ...bomClaude } = foldById(await pass(claude, home)).get(SID)!;
    const { checkpoint: _c2, path: _p2, ...bomCodex } = foldById(await pass(codex, home)).get(CID)!;
    const { checkpoint: _c3, path: _p3, ...wantClaude } = plainClaude;
    const { checkpoint: _c4, path: _p4, ...wantCodex } = plainCodex;
    expect(bomCodex).toEqual(wantCodex);
    expect(bomClaude).toEqual(wantClaude);
  });
});
