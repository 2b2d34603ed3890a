// The OpenCode 1.x and Kilo releases this mapping was checked against: docs/formats/opencode.md
// and docs/formats/kilo.md. Kilo 7.x's `session_entry` table is not read: `message`/`part` stay the
// store. OpenCode 2.x's `session_message` store is read by map-v2.ts.
import type { SessionEvent, SessionMetaPatch } from '../../../core/session.js';
import { asCopied } from '../../internal/copies.js';
import { createUnknownRecords } from '../../internal/unknown-records.js';
import { compactionEvent, recordDiagnostic, thinkingEvent, toolCallEvent, toolResultEvent, turnEvent, type Ref } from '../events.js';
import { numberOf, parseJsonValue, stringOf } from '../values.js';
import { messageDataSchema, partDataSchema, sessionModelSchema, type MessageData, type PartData } from './schema.js';
import { writtenFile } from './tools.js';
import { messageData, messageUsage, v2Chunks, type FamilyV2MessageRow, type ForkCopies, type MessageChunk, type ReplayReport } from './map-v2.js';

/** A `session` row as the reader selects it (missing optional columns read as NULL). */
export interface FamilySessionRow {
  readonly id: string;
  readonly parent_id: unknown;
  readonly directory: unknown;
  readonly title: unknown;
  readonly version: unknown;
  readonly time_created: unknown;
  readonly time_updated: unknown;
  readonly time_compacting: unknown;
  readonly model: unknown;
}

export interface FamilyMessageRow {
  readonly id: string;
  readonly time_created: unknown;
  readonly data: unknown;
}

export interface FamilyPartRow {
  readonly id: string;
  readonly message_id: string;
  readonly time_created: unknown;
  readonly time_updated: unknown;
  readonly data: unknown;
}

export interface FamilySpec {
  readonly agent: 'opencode' | 'kilo';
  /** The agent's name in diagnostics. */
  readonly label: string;
  readonly dbPath: string;
  readonly resumeCommand: (sessionId: string) => string;
}

interface Part {
  readonly row: FamilyPartRow;
  readonly data: PartData;
}

const TOOL_DONE = new Set(['completed', 'error']);

/** The part types the replay reads. */
const USED_PART_TYPES: ReadonlySet<string> = new Set(['text', 'tool', 'compaction']);
/** Part types opencode (1.x) and kilo (7.x) write that carry nothing agentwatch shows; skipped before validation. */
const IGNORED_PART_TYPES: ReadonlySet<string> = new Set(['reasoning', 'file', 'agent', 'subtask', 'patch', 'snapshot', 'step-start', 'step-finish', 'retry']);

/** The part's `type` when the JSON has one, for the skim below. */
const partType = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' ? value.type : undefined;

const textOf = (part: PartData): string | undefined =>
  part.type === 'text' && !part.synthetic && typeof part.text === 'string' && part.text.trim() !== '' ? part.text : undefined;

const errorText = (data: MessageData): string | undefined => {
  const message = data.error?.data?.message;
  return typeof message === 'string' && message !== '' ? message : (data.error?.name ?? undefined);
};

const sessionModel = (raw: unknown): string | undefined => {
  const json = parseJsonValue(raw);
  if (!json.ok) return undefined;
  const parsed = sessionModelSchema.safeParse(json.value);
  return parsed.success ? parsed.data.id : undefined;
};

/**
 * One session's replay: its meta patch (from the session row and the last model its messages
 * name), the diagnostics, then the events of its messages, chunk after chunk.
 */
const replaySession = (
  spec: FamilySpec,
  session: FamilySessionRow,
  chunksOf: (ref: Ref, report: ReplayReport) => readonly MessageChunk[],
): SessionEvent[] => {
  const ref: Ref = { agent: spec.agent, sessionId: session.id };
  const diagnostics: SessionEvent[] = [];
  // Once per session and kind (the poller also drops repeats across replays: same message).
  const version = stringOf(session.version);
  const unknownKinds = createUnknownRecords(spec.agent, spec.agent === 'kilo' ? 'Kilo' : 'OpenCode');
  const report: ReplayReport = {
    bad: (what, id, error) => diagnostics.push(recordDiagnostic(ref, spec.dbPath, `${what} ${id}: ${error}`)),
    unknown: (key, what) => diagnostics.push(...unknownKinds.once(key, what, { sessionId: session.id, path: spec.dbPath, ...(version ? { version } : {}) })),
  };
  const timeline: SessionEvent[] = [];
  let model = sessionModel(session.model);
  for (const chunk of chunksOf(ref, report)) {
    for (const event of chunk.events) timeline.push(event);
    model = chunk.model ?? model;
  }

  // NOTE: time_compacting is set while a compaction runs, so it is the newest thing that happened.
  const compacting = numberOf(session.time_compacting);
  if (compacting !== undefined && compacting > 0) timeline.push(compactionEvent(ref, compacting, 'start'));

  const parentId = stringOf(session.parent_id);
  const patch: SessionMetaPatch = {
    cwd: stringOf(session.directory),
    agentName: stringOf(session.title),
    version: stringOf(session.version),
    model,
    source: 'cli',
    isSidechain: parentId !== undefined,
    parentId,
    createdAt: numberOf(session.time_created),
    path: spec.dbPath,
    resumeCommand: spec.resumeCommand(session.id),
  };
  return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'meta', patch }, ...diagnostics, ...timeline];
};

/**
 * The 1.x messages of a session (`message` rows in order, their `part` rows in order) as chunks;
 * those `copies` names read as copies (`asCopied`: history, but no usage and no message count).
 */
const v1Chunks = (
  ref: Ref,
  messages: readonly FamilyMessageRow[],
  parts: readonly FamilyPartRow[],
  report: ReplayReport,
  copies: ReadonlySet<string> | undefined,
): MessageChunk[] => {
  const partsByMessage = new Map<string, Part[]>();
  for (const row of parts) {
    const json = parseJsonValue(row.data);
    // Skim: most parts (step-start/finish, reasoning, snapshot, patch...) carry nothing we show.
    const type = json.ok ? partType(json.value) : undefined;
    if (type !== undefined && !USED_PART_TYPES.has(type)) {
      if (!IGNORED_PART_TYPES.has(type)) report.unknown(`part:${type}`, `part type "${type}"`);
      continue;
    }
    const parsed = json.ok ? partDataSchema.safeParse(json.value) : undefined;
    if (!json.ok || !parsed?.success) {
      report.bad('part', row.id, json.ok ? (parsed?.error?.issues[0]?.message ?? 'invalid') : json.error);
      continue;
    }
    const list = partsByMessage.get(row.message_id) ?? [];
    list.push({ row, data: parsed.data });
    partsByMessage.set(row.message_id, list);
  }

  const chunks: MessageChunk[] = [];
  for (const row of messages) {
    const data = messageData(row, messageDataSchema, report);
    if (!data) continue;
    const model = data.modelID ?? data.model?.modelID ?? undefined;
    const at = data.time?.created ?? numberOf(row.time_created) ?? 0;
    const own = partsByMessage.get(row.id) ?? [];
    let events: SessionEvent[] = [];
    if (data.role === 'user') events = userEvents(ref, at, own);
    else if (data.role === 'assistant') events = assistantEvents(ref, row.id, at, data, own);
    else report.unknown(`role:${data.role}`, `message role "${data.role}"`);
    chunks.push({ at, events: copies?.has(row.id) ? asCopied(events) : events, model });
  }
  return chunks;
};

/** The 1.x store of one session: its `message` rows in order and their `part` rows in order. */
export interface V1Messages {
  readonly messages: readonly FamilyMessageRow[];
  readonly parts: readonly FamilyPartRow[];
  /** In a fork of 1.x (or Kilo), the ids of its messages that are copies of another session's (v1-forks.ts). */
  readonly copies?: ReadonlySet<string>;
}

/**
 * Pure: one opencode/kilo session (its row, its messages from either store) -> the full event
 * replay. A tool part is a call, and a result once its status is completed/error, so a message
 * that used a tool and then answered ends on an assistant turn (waiting, not running). Bad `data`
 * JSON becomes an E_SCHEMA diagnostic and the rest of the session is still read.
 *
 * The 2.x `session_message` rows (map-v2.ts) and the 1.x `message`/`part` rows are read together,
 * a message by its id once: an upgrade to OpenCode 2.x copies 1.x messages into `session_message`
 * with their ids and leaves the 1.x tables frozen (read both, and every migrated message counted
 * twice), while late 1.x releases and Kilo write some messages to one store and some to the other
 * (read one, and the rest are lost). Where both stores hold messages of the session, they are
 * merged in the order they were written.
 *
 * `copies`, for a fork of OpenCode 2.x, names its `session_message` rows that are copies of the
 * parent's (new ids, so the id does not tell): read as history, not counted again (map-v2.ts);
 * `v1.copies` does the same for a fork of 1.x or Kilo (v1-forks.ts).
 */
export const mapFamilySessionStores = (
  spec: FamilySpec,
  session: FamilySessionRow,
  v1: V1Messages | undefined,
  v2: readonly FamilyV2MessageRow[],
  copies?: ForkCopies,
): SessionEvent[] =>
  replaySession(spec, session, (ref, report) => {
    const fromV2 = v2.length > 0 ? v2Chunks(ref, v2, report, copies) : [];
    if (!v1 || v1.messages.length === 0) return fromV2;
    const copied = new Set(v2.map((row) => row.id));
    const messages = copied.size === 0 ? v1.messages : v1.messages.filter((row) => !copied.has(row.id));
    const fromV1 = v1Chunks(ref, messages, v1.parts, report, v1.copies);
    if (fromV2.length === 0) return fromV1;
    // A stable sort: messages written at the same instant keep their store's own order.
    return [...fromV1, ...fromV2].sort((a, b) => a.at - b.at);
  });

/** One 1.x session: its row, its `message` rows in order, their `part` rows in order. */
export const mapFamilySession = (spec: FamilySpec, session: FamilySessionRow, messages: readonly FamilyMessageRow[], parts: readonly FamilyPartRow[]): SessionEvent[] =>
  mapFamilySessionStores(spec, session, { messages, parts }, []);

/** One 2.x session: its row, its `session_message` rows in `seq` order (and, for a fork, which are copies). */
export const mapFamilyV2Session = (spec: FamilySpec, session: FamilySessionRow, rows: readonly FamilyV2MessageRow[], copies?: ForkCopies): SessionEvent[] =>
  mapFamilySessionStores(spec, session, undefined, rows, copies);

/** A user message; one carrying a `compaction` part is the compaction request, not a prompt. */
const userEvents = (ref: Ref, at: number, parts: readonly Part[]): SessionEvent[] => {
  const text = parts.map((part) => textOf(part.data)).filter((t) => t !== undefined).join('\n');
  const isCompaction = parts.some((part) => part.data.type === 'compaction');
  const turn = turnEvent(ref, at, 'user', text || undefined, isCompaction ? false : undefined);
  return isCompaction ? [compactionEvent(ref, at, 'start'), turn] : [turn];
};

const assistantEvents = (ref: Ref, messageId: string, at: number, data: MessageData, parts: readonly Part[]): SessionEvent[] => {
  const out: SessionEvent[] = [];
  const isSummary = data.summary === true;
  const completedAt = data.time?.completed;
  let counted = false;
  let endsOnAnswer = false;
  for (const { row, data: part } of parts) {
    const partAt = part.time?.start ?? numberOf(row.time_created) ?? at;
    const text = textOf(part);
    if (text !== undefined) {
      // An answer is given when its text ends (a long one streams for minutes): the waiting grace
      // and the 2 minutes to idle run from then. A text still streaming is the model at work.
      const endedAt = part.time?.end ?? completedAt;
      out.push(turnEvent(ref, endedAt ?? partAt, 'assistant', text, counted || isSummary ? false : undefined));
      if (endedAt === undefined && data.finish === undefined) out.push(thinkingEvent(ref, Math.max(partAt, numberOf(row.time_updated) ?? partAt)));
      counted = true;
      endsOnAnswer = true;
    } else if (part.type === 'tool') {
      const name = part.tool || 'unknown';
      const callId = part.callID || row.id;
      const callAt = part.state?.time?.start ?? partAt;
      const filePath = writtenFile(name, part.state?.input);
      out.push(toolCallEvent(ref, callAt, name, callId, filePath));
      const status = part.state?.status ?? '';
      if (TOOL_DONE.has(status)) {
        const doneAt = part.state?.time?.end ?? numberOf(row.time_updated) ?? callAt;
        out.push(toolResultEvent(ref, doneAt, callId, status === 'error'));
      }
      endsOnAnswer = false;
    }
  }
  out.push(...messageUsage(ref, at, messageId, data.tokens, data.cost));
  // A finished message that stopped for any reason but more tool calls (an error, an abort, a
  // tool-only answer) hands the turn back to the user: mark it so the session reads as waiting.
  if (completedAt && data.finish !== 'tool-calls' && !endsOnAnswer) {
    const text = errorText(data);
    out.push(turnEvent(ref, completedAt, 'assistant', text, false));
  }
  if (isSummary && completedAt) out.push(compactionEvent(ref, completedAt, 'end'));
  return out;
};
