import { isAgentKind } from '../../core/agents.js';
import { DIAGNOSTIC_CODES } from '../../core/diagnostics.js';
import { intern } from '../../core/intern.js';
import { NO_SUBAGENTS, sameTokens, ZERO_TOKENS, type DiagnosticCode, type DiagnosticCounts, type FileCheckpoint, type FileStamp, type LastTurn, type ModelTokens, type SubagentUsage, type TokenCounts, type ToolUse } from '../../core/session.js';
import type { Core } from './lazy-detail.js';
import { parseJson } from './skim.js';

/**
 * How the discovery cache stores a state's core: one JSON array, fields by position, without
 * the checkpoint the row's own columns already hold (path, offset, size, mtime) nor the path
 * again when it is the row's. A warm start parses one core per session, so this is what it
 * pays for: against the object JSON it replaces, a third of the bytes, no key to look up per
 * field, and every restored core built by one object literal (one V8 hidden class).
 *
 * Decoding checks the type at every position, as the core's zod schema would, at a fraction of
 * its cost: a row that does not decode is dropped and its file read again.
 * NOTE: changing a position changes the stored format: bump CACHE_SCHEMA_VERSION (cache.ts).
 */

/** The row columns a core leaves out and gets back from. */
export interface CoreRow {
  readonly path: string;
  readonly offset: number;
  readonly size: number;
  readonly mtimeMs: number;
}

const DIAGNOSTIC_CODE_SET: ReadonlySet<string> = new Set(DIAGNOSTIC_CODES);
const LAST_TURNS: ReadonlySet<string> = new Set<LastTurn>(['none', 'user', 'assistant', 'tool_call', 'tool_result', 'thinking']);
/** A checkpoint other than the row's, and its lack, in the checkpoint's position. */
const NO_CHECKPOINT = -1;
const ROW_CHECKPOINT_WITHOUT_INO = -2;

const matchesRow = (cp: FileCheckpoint, row: CoreRow): boolean => cp.path === row.path && cp.offset === row.offset && cp.size === row.size && cp.mtimeMs === row.mtimeMs;

/** Diagnostic counts as stored: `[[code, n], ...]`, or undefined for none. */
export const encodeDiagnostics = (counts: DiagnosticCounts | undefined): [string, number][] | undefined => {
  const pairs = counts === undefined ? [] : (Object.entries(counts) as [string, number][]);
  return pairs.length > 0 ? pairs : undefined;
};

const encodeCheckpoint = (cp: FileCheckpoint | null, row: CoreRow): unknown => {
  if (cp === null) return NO_CHECKPOINT;
  const diagnostics = encodeDiagnostics(cp.diagnostics);
  const before = cp.before !== undefined && cp.before.length > 0 ? cp.before.map((b) => [b.path, b.size, b.mtimeMs, b.ino ?? null]) : undefined;
  // Rare parts (the earlier files of a session read from several, diagnostics): the long form, with them last.
  if (diagnostics !== undefined) return [cp.path, cp.offset, cp.size, cp.mtimeMs, cp.ino ?? null, before ?? null, diagnostics];
  if (before !== undefined) return [cp.path, cp.offset, cp.size, cp.mtimeMs, cp.ino ?? null, before];
  if (!matchesRow(cp, row)) return [cp.path, cp.offset, cp.size, cp.mtimeMs, cp.ino ?? null];
  return cp.ino ?? ROW_CHECKPOINT_WITHOUT_INO;
};

/** Counts as stored: `[input, output, cacheCreation, cacheRead]`, and the one-hour writes last when there are any (`decodeTokens`). */
const encodeTokens = (t: TokenCounts): number[] =>
  t.cacheCreation1h === undefined ? [t.input, t.output, t.cacheCreation, t.cacheRead] : [t.input, t.output, t.cacheCreation, t.cacheRead, t.cacheCreation1h];

/** Tokens by model as stored: `[[model, tokens, aboveTier or null], ...]`, or null for none (`decodeByModel`). */
const encodeByModel = (byModel: Readonly<Record<string, ModelTokens>>): unknown => {
  const entries = Object.entries(byModel);
  return entries.length === 0 ? null : entries.map(([model, part]) => [model, encodeTokens(part.tokens), sameTokens(part.aboveTier, ZERO_TOKENS) ? null : encodeTokens(part.aboveTier)]);
};

/** A sub-agent usage as stored: `[sessions, costUsd, ...encodeTokens]` (`decodeSubagents`). */
const encodeSubagents = (u: SubagentUsage): number[] => [u.sessions, u.costUsd, ...encodeTokens(u.tokens)];

/** The stored text of `state`'s core, for the row `row`. */
export const encodeCore = (state: Core, row: CoreRow): string => {
  const { tokens: t, subagents: s, inlineSubagents: i, tokensAboveTier: a } = state;
  return JSON.stringify([
    state.agent,
    state.sessionId,
    state.cwd,
    state.model,
    state.gitBranch,
    state.version,
    state.agentName,
    state.source,
    state.isSidechain,
    state.parentId,
    state.resumeCommand,
    state.path === row.path ? null : state.path,
    state.createdAt,
    state.lastActivityAt,
    state.lastTurn,
    state.lastTurnAt,
    state.userMessages,
    state.assistantMessages,
    encodeTokens(t),
    state.recordedCostUsd,
    encodeSubagents(s),
    state.pendingTools.map((tool) => (tool.callId === undefined ? [tool.name, tool.at, tool.done] : [tool.name, tool.at, tool.done, tool.callId])),
    state.lastFileWrite,
    state.lastFileWriteAt,
    state.compactionStartedAt,
    state.compactionEndedAt,
    encodeCheckpoint(state.checkpoint, row),
    // Only claude 1.0.x transcripts hold sub-agent turns inline: null for every other session.
    i === NO_SUBAGENTS || (i.sessions === 0 && i.costUsd === 0 && sameTokens(i.tokens, ZERO_TOKENS)) ? null : encodeSubagents(i),
    // Only messages past the price tier (1M-context models) have any: null for almost every session.
    sameTokens(a, ZERO_TOKENS) ? null : encodeTokens(a),
    encodeByModel(state.tokensByModel),
  ]);
};

const FIELDS = 30;

/** Thrown inside `decodeCore` only, at the first position of the wrong type. */
class Mismatch extends Error {}
const MISMATCH = new Mismatch('core does not decode');

const str = (value: unknown): string => {
  if (typeof value !== 'string') throw MISMATCH;
  return value;
};
const num = (value: unknown): number => {
  if (typeof value !== 'number') throw MISMATCH;
  return value;
};
const bool = (value: unknown): boolean => {
  if (typeof value !== 'boolean') throw MISMATCH;
  return value;
};
const list = (value: unknown, length?: number): unknown[] => {
  if (!Array.isArray(value) || (length !== undefined && value.length !== length)) throw MISMATCH;
  return value;
};

/** Stored counts (`encodeTokens`). */
const decodeTokens = (value: unknown): TokenCounts => {
  const t = list(value);
  if (t.length !== 4 && t.length !== 5) throw MISMATCH;
  const tokens = { input: num(t[0]), output: num(t[1]), cacheCreation: num(t[2]), cacheRead: num(t[3]) };
  return t.length === 5 ? { ...tokens, cacheCreation1h: num(t[4]) } : tokens;
};

/** Stored tokens by model (`encodeByModel`). */
const decodeByModel = (value: unknown): Readonly<Record<string, ModelTokens>> => {
  if (value === null) return {};
  const byModel: Record<string, ModelTokens> = {};
  for (const entry of list(value)) {
    const [model, tokens, above] = list(entry, 3);
    byModel[intern(str(model))] = { tokens: decodeTokens(tokens), aboveTier: above === null ? ZERO_TOKENS : decodeTokens(above) };
  }
  return byModel;
};

/** A stored sub-agent usage (`encodeSubagents`). */
const decodeSubagents = (value: unknown): SubagentUsage => {
  const u = list(value);
  return { sessions: num(u[0]), costUsd: num(u[1]), tokens: decodeTokens(u.slice(2)) };
};

const decodeTool = (value: unknown): ToolUse => {
  const [name, at, done, callId] = list(value);
  const length = (value as unknown[]).length;
  if (length === 3) return { name: intern(str(name)), at: num(at), done: bool(done) };
  if (length === 4) return { name: intern(str(name)), at: num(at), callId: str(callId), done: bool(done) };
  throw MISMATCH;
};

const decodeStamp = (value: unknown): FileStamp => {
  const [path, size, mtimeMs, ino] = list(value, 4);
  const base = { path: str(path), size: num(size), mtimeMs: num(mtimeMs) };
  return ino === null ? base : { ...base, ino: num(ino) };
};

const decodeDiagnostics = (value: unknown): DiagnosticCounts => {
  const counts: Partial<Record<DiagnosticCode, number>> = {};
  for (const pair of list(value)) {
    const [code, n] = list(pair, 2);
    const count = num(n);
    if (!DIAGNOSTIC_CODE_SET.has(str(code)) || !Number.isInteger(count) || count < 1) throw MISMATCH;
    counts[code as DiagnosticCode] = count;
  }
  return counts;
};

const decodeCheckpoint = (value: unknown, row: CoreRow): FileCheckpoint | null => {
  if (value === NO_CHECKPOINT) return null;
  if (value === ROW_CHECKPOINT_WITHOUT_INO) return { path: row.path, offset: row.offset, size: row.size, mtimeMs: row.mtimeMs };
  if (typeof value === 'number') return { path: row.path, offset: row.offset, size: row.size, mtimeMs: row.mtimeMs, ino: value };
  const fields = list(value);
  if (fields.length < 5 || fields.length > 7) throw MISMATCH;
  const [path, offset, size, mtimeMs, ino, before, diagnostics] = fields;
  const base = { path: str(path), offset: num(offset), size: num(size), mtimeMs: num(mtimeMs) };
  const withIno = ino === null ? base : { ...base, ino: num(ino) };
  const withBefore = fields.length === 5 || before === null ? withIno : { ...withIno, before: list(before).map(decodeStamp) };
  return fields.length === 7 ? { ...withBefore, diagnostics: decodeDiagnostics(diagnostics) } : withBefore;
};

/** Stored diagnostic counts (`encodeDiagnostics`) back, or undefined when they do not decode. */
export const decodeDiagnosticCounts = (value: unknown): DiagnosticCounts | undefined => {
  try {
    return decodeDiagnostics(value);
  } catch {
    return undefined;
  }
};

/**
 * The core stored as `text` for the row `row`, or undefined when it does not decode (not JSON,
 * another layout, a value of the wrong type). Repeated short strings are interned.
 */
export const decodeCore = (text: string, row: CoreRow): Core | undefined => {
  const fields = parseJson(text);
  if (!Array.isArray(fields) || fields.length !== FIELDS) return undefined;
  try {
    const agent = str(fields[0]);
    const source = str(fields[7]);
    const lastTurn = str(fields[14]);
    if (!isAgentKind(agent) || (source !== 'cli' && source !== 'desktop') || !LAST_TURNS.has(lastTurn)) return undefined;
    const path = fields[11] === null ? row.path : str(fields[11]);
    const tokens = list(fields[18]);
    const above = fields[28] === null ? undefined : list(fields[28]);
    return {
      agent: intern(agent) as typeof agent,
      sessionId: str(fields[1]),
      cwd: intern(str(fields[2])),
      model: intern(str(fields[3])),
      gitBranch: intern(str(fields[4])),
      version: intern(str(fields[5])),
      agentName: str(fields[6]),
      source,
      isSidechain: bool(fields[8]),
      parentId: str(fields[9]),
      resumeCommand: str(fields[10]),
      path,
      createdAt: num(fields[12]),
      lastActivityAt: num(fields[13]),
      lastTurn: intern(lastTurn) as LastTurn,
      lastTurnAt: num(fields[15]),
      userMessages: num(fields[16]),
      assistantMessages: num(fields[17]),
      tokens: decodeTokens(tokens),
      tokensAboveTier: above === undefined ? ZERO_TOKENS : decodeTokens(above),
      tokensByModel: decodeByModel(fields[29]),
      recordedCostUsd: num(fields[19]),
      subagents: decodeSubagents(fields[20]),
      inlineSubagents: fields[27] === null ? NO_SUBAGENTS : decodeSubagents(fields[27]),
      pendingTools: list(fields[21]).map(decodeTool),
      lastFileWrite: str(fields[22]),
      lastFileWriteAt: num(fields[23]),
      compactionStartedAt: num(fields[24]),
      compactionEndedAt: num(fields[25]),
      checkpoint: decodeCheckpoint(fields[26], row),
    };
  } catch (error) {
    if (error === MISMATCH) return undefined;
    throw error;
  }
};
