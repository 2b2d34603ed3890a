// Grok Build's `updates.jsonl` (docs/formats/grok.md): each `turn_completed` record's `usage` is
// that turn's own, `totalTokens` is `inputTokens + outputTokens` (cached reads are part of the
// input, reasoning part of the output), and `costUsdTicks` counts 1e-10 USD.
import type { Stats } from 'node:fs';
import { z } from 'zod';
import type { TokenCounts } from '../../core/session.js';
import { readLinesFrom, type ReadOptions } from '../internal/read-lines.js';
import { parseJson } from '../internal/skim.js';
import { lenientCount } from '../internal/counts.js';

/** A line that may end a turn; others (the stream's text chunks, tool updates) are never parsed. */
const TURN_COMPLETED = Buffer.from('"turn_completed"');
/** USD per `costUsdTicks` tick. */
const USD_PER_TICK = 1e-10;

/**
 * The usage of every turn of one session read so far, and where reading stopped: the bytes of
 * `updates.jsonl` read (complete lines only), and the file's size, mtime and inode then. Also the
 * shape the discovery cache keeps it in (a side text of `updates.jsonl`).
 */
const ledgerSchema = z.object({
  offset: z.number().int().nonnegative(),
  size: z.number().nonnegative(),
  mtimeMs: z.number(),
  ino: z.number(),
  inputTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  cachedReadTokens: z.number().nonnegative(),
  cacheCreationTokens: z.number().nonnegative(),
  costUsdTicks: z.number().nonnegative(),
  turns: z.number().int().nonnegative(),
});
export type GrokLedger = Readonly<z.infer<typeof ledgerSchema>>;

export const EMPTY_LEDGER: GrokLedger = { offset: 0, size: 0, mtimeMs: 0, ino: 0, inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheCreationTokens: 0, costUsdTicks: 0, turns: 0 };

const amount = lenientCount;
const turnCompletedSchema = z.object({
  params: z.object({
    /** The update's id, prefixed by the id of the session that wrote it (a fork's copies keep the parent's). */
    _meta: z.object({ eventId: z.string().optional().catch(undefined) }).optional().catch(undefined),
    update: z.object({
      sessionUpdate: z.literal('turn_completed'),
      // null on a cancelled or failed turn (Grok 1.0.4x), absent where older builds wrote none: nothing spent.
      usage: z.object({ inputTokens: amount, outputTokens: amount, cachedReadTokens: amount, cacheCreationTokens: amount, costUsdTicks: amount }).nullish(),
    }),
  }),
});

/** A ledger as the discovery cache keeps it (a side text of `updates.jsonl`), or undefined when it does not validate. */
export const ledgerFromText = (text: string): GrokLedger | undefined => {
  const parsed = ledgerSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data : undefined;
};

export const ledgerText = (ledger: GrokLedger): string => JSON.stringify(ledger);

/** The session's token totals and recorded cost: input without the cached part, as the other agents count it. */
export const ledgerTotals = (ledger: GrokLedger): { readonly tokens: TokenCounts; readonly costUsd: number } => ({
  tokens: {
    input: Math.max(0, ledger.inputTokens - ledger.cachedReadTokens - ledger.cacheCreationTokens),
    output: ledger.outputTokens,
    cacheCreation: ledger.cacheCreationTokens,
    cacheRead: ledger.cachedReadTokens,
  },
  costUsd: ledger.costUsdTicks * USD_PER_TICK,
});

/** True when `ledger` was taken of the file exactly as `info` describes it (nothing to read). */
export const ledgerIsCurrent = (ledger: GrokLedger, info: Stats): boolean =>
  ledger.size === info.size && ledger.mtimeMs === info.mtimeMs && ledger.ino === info.ino;

/**
 * `ledger` brought up to date with `file` (whose stat is `info`): the lines appended since its
 * offset are read, and only those holding a `turn_completed` update are parsed. A file that
 * shrank or was replaced is read again from its first byte. A turn line that does not validate
 * counts in `skipped` (the caller reports it) and adds nothing. `forkOf`: the parent of a forked
 * session, whose turns the fork's file starts with a copy of (their event ids keep the parent's
 * id): those are the parent's spend, not the fork's.
 */
export const advanceLedger = async (
  ledger: GrokLedger,
  file: string,
  info: Stats,
  read: ReadOptions,
  forkOf?: string,
): Promise<{ readonly ledger: GrokLedger; readonly skipped: number }> => {
  const base = info.size < ledger.offset || (ledger.ino !== 0 && ledger.ino !== info.ino) ? EMPTY_LEDGER : ledger;
  if (info.size === base.offset) return { ledger: { ...base, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino }, skipped: 0 };
  let { inputTokens, outputTokens, cachedReadTokens, cacheCreationTokens, costUsdTicks, turns } = base;
  let skipped = 0;
  const outcome = await readLinesFrom(
    file,
    base.offset,
    info.size,
    (items) => {
      for (const item of items) {
        if (item.kind !== 'line' || !item.bytes.includes(TURN_COMPLETED)) continue;
        const parsed = turnCompletedSchema.safeParse(parseJson(item.bytes.toString('utf8')));
        if (!parsed.success) {
          skipped += 1;
          continue;
        }
        if (forkOf && parsed.data.params._meta?.eventId?.startsWith(forkOf)) continue;
        const usage = parsed.data.params.update.usage;
        if (!usage) continue;
        inputTokens += usage.inputTokens;
        outputTokens += usage.outputTokens;
        cachedReadTokens += usage.cachedReadTokens;
        cacheCreationTokens += usage.cacheCreationTokens;
        costUsdTicks += usage.costUsdTicks;
        turns += 1;
      }
    },
    read,
  );
  const ledgerNow: GrokLedger = { offset: outcome.consumed, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, inputTokens, outputTokens, cachedReadTokens, cacheCreationTokens, costUsdTicks, turns };
  return { ledger: ledgerNow, skipped };
};
