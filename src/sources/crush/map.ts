// The mapping of docs/formats/crush.md: a session row and its message rows in, events out. Pure.
import type { SessionEvent, SessionMetaPatch } from '../../core/session.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { compactionEvent, recordDiagnostic, thinkingEvent, toolCallEvent, toolResultEvent, turnEvent, usageEvent, type Ref } from '../sqlite/events.js';
import { numberOf, parseJsonValue, stringOf } from '../sqlite/values.js';
import { crushPartSchema, crushPartsSchema, IGNORED_PART_TYPES, toolInputSchema, type CrushPart } from './schema.js';

/** A `sessions` row as the reader selects it (a column missing from an older schema reads as NULL). */
export interface CrushSessionRow {
  readonly id: string;
  readonly parent_session_id: unknown;
  readonly title: unknown;
  readonly prompt_tokens: unknown;
  readonly completion_tokens: unknown;
  readonly cost: unknown;
  readonly created_at: unknown;
  /** What its sub-agent sessions cost: Crush adds a finished child's cost to its parent's. */
  readonly children_cost: unknown;
}

export interface CrushMessageRow {
  readonly id: string;
  readonly role: unknown;
  readonly parts: unknown;
  readonly model: unknown;
  readonly created_at: unknown;
  readonly updated_at: unknown;
  readonly finished_at: unknown;
  readonly is_summary_message: unknown;
}

export interface CrushSpec {
  /** The project the database belongs to: every session's working directory. */
  readonly project: string;
  readonly dbPath: string;
  readonly resumeCommand: (project: string, sessionId: string) => string;
}

/** Tools whose `file_path` is the file they change. */
const WRITE_TOOLS: ReadonlySet<string> = new Set(['edit', 'multiedit', 'write']);
/** Asks the person and waits for the answer: its open call is a wait for the user, not a tool at work. */
const QUESTION_TOOL = 'question';
/** An answer that hands the turn to the tools it called: the turn goes on. */
const TOOL_USE = 'tool_use';

/**
 * Crush writes times with `strftime('%s')`: seconds. A value already in milliseconds (as its
 * first schema's comments say) is taken as it is.
 */
const crushTime = (value: unknown): number | undefined => {
  const n = numberOf(value);
  if (n === undefined || n <= 0) return undefined;
  return n < 1e11 ? n * 1000 : n;
};

const writtenFile = (name: string, input: string | undefined): string | undefined => {
  if (!WRITE_TOOLS.has(name) || input === undefined) return undefined;
  const json = parseJsonValue(input);
  const parsed = json.ok ? toolInputSchema.safeParse(json.value) : undefined;
  return parsed?.success ? (parsed.data.file_path ?? parsed.data.path) : undefined;
};

const joinedText = (parts: readonly CrushPart[]): string | undefined => {
  const text = parts
    .flatMap((part) => (part.type === 'text' && part.data.text?.trim() ? [part.data.text] : []))
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
};

interface Parsed {
  readonly row: CrushMessageRow;
  readonly parts: readonly CrushPart[];
}

/**
 * One session's replay: its meta patch, the diagnostics of parts it could not use, the events of
 * its messages in order, then its usage (Crush keeps it per session, not per message).
 */
export const mapCrushSession = (spec: CrushSpec, session: CrushSessionRow, messages: readonly CrushMessageRow[]): SessionEvent[] => {
  const ref: Ref = { agent: 'crush', sessionId: session.id };
  const diagnostics: SessionEvent[] = [];
  const unknown = createUnknownRecords('crush', 'Crush');
  const where = { sessionId: session.id, path: spec.dbPath };

  const parsed: Parsed[] = [];
  for (const row of messages) {
    const json = parseJsonValue(row.parts);
    const list = json.ok ? crushPartsSchema.safeParse(json.value) : undefined;
    if (!list?.success) {
      diagnostics.push(recordDiagnostic(ref, spec.dbPath, `message ${row.id}: parts ${json.ok ? 'are not a list of {type, data}' : json.error}`));
      continue;
    }
    const parts: CrushPart[] = [];
    for (const raw of list.data) {
      if (IGNORED_PART_TYPES.has(raw.type)) continue;
      const part = crushPartSchema.safeParse(raw);
      if (part.success) parts.push(part.data);
      else diagnostics.push(...unknown.once(`part:${raw.type}`, `message part type "${raw.type}"`, where));
    }
    parsed.push({ row, parts });
  }

  // The calls a tool message answered, so an unanswered question reads as a wait for the user.
  const answered = new Set<string>();
  for (const { parts } of parsed) for (const part of parts) if (part.type === 'tool_result' && part.data.tool_call_id) answered.add(part.data.tool_call_id);

  const timeline: SessionEvent[] = [];
  let model: string | undefined;
  for (const { row, parts } of parsed) {
    const role = stringOf(row.role);
    const at = crushTime(row.created_at) ?? 0;
    const finish = parts.find((part) => part.type === 'finish');
    const finishedAt = crushTime(finish?.data.time) ?? crushTime(row.finished_at);
    const text = joinedText(parts);
    if (role === 'user') {
      timeline.push(turnEvent(ref, at, 'user', text));
    } else if (role === 'assistant') {
      model = stringOf(row.model) ?? model;
      if (numberOf(row.is_summary_message) === 1) {
        timeline.push(compactionEvent(ref, at, 'start'));
        if (finishedAt !== undefined) timeline.push(compactionEvent(ref, finishedAt, 'end'));
        continue;
      }
      const calls = parts.filter((part) => part.type === 'tool_call');
      if (text !== undefined && (calls.length > 0 || finish?.data.reason === TOOL_USE)) timeline.push(turnEvent(ref, at, 'assistant', text));
      for (const call of calls) {
        const name = call.data.name ?? '';
        const id = call.data.id ?? `${row.id}:${name}`;
        timeline.push(toolCallEvent(ref, at, name, id, writtenFile(name, call.data.input)));
        if (name === QUESTION_TOOL && !answered.has(id)) timeline.push(turnEvent(ref, at, 'assistant', undefined, false));
      }
      if (finishedAt === undefined) {
        // Still streaming: the model at work, as of the row's last update.
        if (calls.length === 0) timeline.push(thinkingEvent(ref, crushTime(row.updated_at) ?? at));
      } else if (finish?.data.reason !== TOOL_USE && calls.length === 0) {
        // The turn ends here (an answer, or one cancelled or failed with its reason as the text).
        const said = text ?? finish?.data.message;
        timeline.push(turnEvent(ref, finishedAt, 'assistant', said, text === undefined ? false : undefined));
      }
    } else if (role === 'tool') {
      for (const part of parts) if (part.type === 'tool_result') timeline.push(toolResultEvent(ref, at, part.data.tool_call_id ?? '', part.data.is_error === true));
    } else {
      diagnostics.push(...unknown.once(`role:${role ?? ''}`, `message role "${role ?? ''}"`, where));
    }
  }

  const cost = numberOf(session.cost);
  const childrenCost = numberOf(session.children_cost) ?? 0;
  const prompt = numberOf(session.prompt_tokens) ?? 0;
  const completion = numberOf(session.completion_tokens) ?? 0;
  const lastAt = timeline.reduce((newest, event) => ('at' in event && typeof event.at === 'number' && event.at > newest ? event.at : newest), 0);
  const usage =
    prompt > 0 || completion > 0 || (cost ?? 0) > 0
      ? [
          {
            ...usageEvent(ref, lastAt, session.id, { input: prompt, output: completion, cacheCreation: 0, cacheRead: 0 }, cost === undefined ? undefined : Math.max(0, cost - childrenCost)),
            mode: 'total' as const,
          },
        ]
      : [];

  const parentId = stringOf(session.parent_session_id);
  const patch: SessionMetaPatch = {
    cwd: spec.project,
    agentName: stringOf(session.title),
    model,
    source: 'cli',
    isSidechain: parentId !== undefined,
    parentId,
    createdAt: crushTime(session.created_at),
    path: spec.dbPath,
    resumeCommand: parentId === undefined ? spec.resumeCommand(spec.project, session.id) : undefined,
  };
  return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'meta', patch }, ...diagnostics, ...timeline, ...usage];
};
