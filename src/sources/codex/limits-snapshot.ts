import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { homeDir } from '../../config/paths.js';
import type { LimitsCtx } from '../../limits/context.js';
import { envValue } from '../../limits/credential-file.js';
import type { LimitReport, LimitWindow, Outcome } from '../../limits/types.js';
import { ageText } from '../../limits/time-format.js';
import { LIVE, SESSION_FILE, labelForSeconds } from '../../limits/windows.js';
import { planName } from '../../limits/provider-fields.js';

/**
 * Codex writes the rate-limit windows its server reported into every rollout, in `token_count`
 * events (`payload.rate_limits`): the newest of them answers `limits` without asking anyone.
 */

/** Newest rollout files read, and the tail of each: a snapshot is in every turn's last lines. */
const FILES_TRIED = 8;
const TAIL_BYTES = 256 * 1024;

const window = z.object({
  used_percent: z.number().min(0),
  window_minutes: z.number().int().positive().nullish(),
  resets_at: z.number().int().positive().nullish(),
  resets_in_seconds: z.number().int().min(0).nullish(),
});

/** A spend control on the account (workspace credits): amounts as strings, as Codex writes them. */
const spendLimit = z.looseObject({
  limit: z.string(),
  used: z.string(),
  remaining_percent: z.number().min(0),
  resets_at: z.number().int().positive().nullish(),
});

const rateLimits = z.looseObject({
  limit_id: z.string().nullish(),
  plan_type: z.string().nullish(),
  primary: window.nullish(),
  secondary: window.nullish(),
  // Newer fields: a shape we do not know costs that part only, never the windows.
  individual_limit: spendLimit.nullish().catch(null),
  spend_control_reached: z.boolean().nullish().catch(null),
  rate_limit_reached_type: z.string().nullish().catch(null),
});

const tokenCountLine = z.looseObject({
  timestamp: z.string(),
  type: z.literal('event_msg'),
  payload: z.looseObject({ type: z.literal('token_count'), rate_limits: rateLimits.nullish() }),
});

/** The windows Codex last wrote, when, and where. */
export interface RolloutSnapshot {
  readonly file: string;
  readonly at: number;
  readonly plan: string;
  readonly windows: readonly LimitWindow[];
  /** What else Codex wrote beside the windows: the spend limit's amounts, a limit reached. */
  readonly remarks: readonly string[];
}

/** The spend limit as a window of unknown length: used is what is not remaining. */
const spendWindow = (limit: z.infer<typeof spendLimit>): LimitWindow => ({
  label: 'spend limit',
  usedPercent: Math.max(0, 100 - limit.remaining_percent),
  resetsAt: limit.resets_at ? limit.resets_at * 1000 : null,
});

const remarksOf = (limits: z.infer<typeof rateLimits>): string[] => [
  ...(limits.individual_limit ? [`spend limit ${limits.individual_limit.used} of ${limits.individual_limit.limit} used`] : []),
  ...(limits.rate_limit_reached_type ? [`Codex reported ${limits.rate_limit_reached_type.replace(/_/g, ' ')}`] : limits.spend_control_reached ? ['Codex reported the spend limit reached'] : []),
];

export const codexSessionsRoot = (ctx: Pick<LimitsCtx, 'env'>): string => path.join(envValue(ctx.env, 'CODEX_HOME') ?? path.join(homeDir(ctx.env), '.codex'), 'sessions');

/** Entries of `dir` newest name first (YYYY, MM, DD and rollout-<time> names sort by time); none when it is missing. */
const newestFirst = async (dir: string): Promise<string[]> => {
  try {
    return (await readdir(dir)).sort().reverse();
  } catch {
    return [];
  }
};

/** The newest rollout files, newest first: sessions/YYYY/MM/DD/rollout-*.jsonl. */
const newestRollouts = async (root: string, wanted: number): Promise<string[]> => {
  const found: string[] = [];
  for (const year of await newestFirst(root)) {
    for (const month of await newestFirst(path.join(root, year))) {
      for (const day of await newestFirst(path.join(root, year, month))) {
        const dir = path.join(root, year, month, day);
        for (const name of await newestFirst(dir)) {
          if (name.startsWith('rollout-') && name.endsWith('.jsonl')) found.push(path.join(dir, name));
        }
        if (found.length >= wanted) return found;
      }
    }
  }
  return found;
};

const tailOf = async (file: string): Promise<string> => {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    const text = buffer.toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    await handle.close();
  }
};

const toWindow = (w: z.infer<typeof window>, at: number): LimitWindow | undefined => {
  if (!w.window_minutes) return undefined;
  const seconds = w.window_minutes * 60;
  const resetsAt = w.resets_at ? w.resets_at * 1000 : w.resets_in_seconds !== null && w.resets_in_seconds !== undefined ? at + w.resets_in_seconds * 1000 : null;
  return { label: labelForSeconds(seconds), windowSeconds: seconds, usedPercent: w.used_percent, resetsAt };
};

/**
 * The newest snapshot of a file that holds a window. Snapshots without one (another limit's,
 * `primary: null` once credits run out) say nothing about the windows and are passed over.
 */
const snapshotIn = (file: string, text: string): RolloutSnapshot | undefined => {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] as string;
    if (!line.includes('"rate_limits"')) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = tokenCountLine.safeParse(json);
    const limits = parsed.success ? parsed.data.payload.rate_limits : undefined;
    if (!parsed.success || !limits || (limits.limit_id && limits.limit_id !== 'codex')) continue;
    const at = Date.parse(parsed.data.timestamp);
    if (!Number.isFinite(at)) continue;
    const windows = [limits.primary, limits.secondary].flatMap((w) => (w ? [toWindow(w, at)] : [])).filter((w): w is LimitWindow => w !== undefined);
    if (limits.individual_limit) windows.push(spendWindow(limits.individual_limit));
    if (windows.length > 0) return { file, at, plan: limits.plan_type ? planName(limits.plan_type) : '', windows, remarks: remarksOf(limits) };
  }
  return undefined;
};

/** The newest rate-limit snapshot in Codex's rollouts, or undefined when none holds one. */
export const newestCodexSnapshot = async (ctx: Pick<LimitsCtx, 'env'>): Promise<RolloutSnapshot | undefined> => {
  let best: RolloutSnapshot | undefined;
  for (const file of await newestRollouts(codexSessionsRoot(ctx), FILES_TRIED)) {
    // A resumed thread appends to an older file: the snapshot's own time decides, not the name.
    const modified = await stat(file).then((s) => s.mtimeMs, () => 0);
    if (best && modified < best.at) continue;
    const found = snapshotIn(file, await tailOf(file).catch(() => ''));
    if (found && (!best || found.at > best.at)) best = found;
  }
  return best;
};

/** Where and when Codex wrote the snapshot, said beside each of its windows. */
const snapshotNote = (snapshot: RolloutSnapshot, now: number): string =>
  `from Codex's session file, ${ageText(snapshot.at, now)} (${snapshot.file}): the windows Codex's server reported with its last answer${snapshot.remarks.map((r) => `; ${r}`).join('')}`;

/** The snapshot's windows, marked as read from the session file, with their age. */
const snapshotWindows = (snapshot: RolloutSnapshot, now: number): LimitWindow[] =>
  snapshot.windows.map((w) => ({ ...w, source: SESSION_FILE, note: snapshotNote(snapshot, now), observedAt: snapshot.at }));

/**
 * The live answer and Codex's own snapshot together, in the one Codex row. Beside a live answer
 * the snapshot shows only its windows that have not reset since (a reset window says nothing
 * now); without one (no login, a failed request) it shows whole, and a failed request stays a
 * failure that names what failed. With neither, the message names the folder looked in.
 */
export const withCodexSnapshot = (live: Outcome, snapshot: RolloutSnapshot | undefined, root: string, now: number): Outcome => {
  if (live.kind === 'ok') {
    const current = snapshot ? snapshotWindows(snapshot, now).filter((w) => w.resetsAt === null || w.resetsAt > now) : [];
    if (current.length === 0) return live;
    return { ...live, reports: live.reports.map((r) => (r.row === 'Codex' ? { ...r, windows: [...r.windows.map((w) => ({ ...w, source: LIVE })), ...current] } : r)) };
  }
  if (snapshot) {
    const report: LimitReport = { row: 'Codex', windows: snapshotWindows(snapshot, now), ...(snapshot.plan ? { plan: snapshot.plan } : {}), note: snapshotNote(snapshot, now) };
    return live.kind === 'failed' ? { ...live, reports: [report] } : { kind: 'ok', agent: 'codex', reports: [report] };
  }
  if (live.kind === 'skipped' && live.reason === 'no-credential') {
    return { ...live, message: `${live.message}; no rate-limit snapshot in Codex's session files either (looked in ${root}): Codex writes one with every answer` };
  }
  return live;
};
