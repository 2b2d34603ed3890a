// The mapping of docs/formats/goose.md: a session row and its message rows in, events out. Pure.
import type { SessionEvent, SessionMetaPatch } from '../../core/session.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { recordDiagnostic, thinkingEvent, toolCallEvent, toolResultEvent, turnEvent, usageEvent, type Ref } from '../sqlite/events.js';
import { numberOf, parseJsonValue, stringOf } from '../sqlite/values.js';
import { gooseContentListSchema, gooseContentSchema, gooseMetadataSchema, gooseModelConfigSchema, IGNORED_CONTENT_TYPES, type GooseContent } from './schema.js';

/** A `sessions` row as the reader selects it (a column missing from an older schema reads as NULL). */
export interface GooseSessionRow {
  readonly id: string;
  readonly name: unknown;
  readonly description: unknown;
  readonly session_type: unknown;
  readonly working_dir: unknown;
  readonly created_at: unknown;
  readonly accumulated_input_tokens: unknown;
  readonly accumulated_output_tokens: unknown;
  readonly accumulated_cost: unknown;
  readonly model_config_json: unknown;
}

export interface GooseMessageRow {
  readonly id: string;
  readonly role: unknown;
  readonly content_json: unknown;
  readonly created_timestamp: unknown;
  readonly metadata_json: unknown;
}

export interface GooseSpec {
  readonly dbPath: string;
  readonly resumeCommand: (sessionId: string) => string;
}

/** Session types the person works in; the others (sub-agents, hidden helpers) are folded but never shown. */
const OWN_TYPES: ReadonlySet<string> = new Set(['user', 'scheduled', 'terminal', 'gateway', 'acp']);

/** The text editor's commands that change the file its `path` names. */
const WRITING_COMMANDS: ReadonlySet<string> = new Set(['write', 'str_replace', 'insert', 'edit_file']);

/** Goose writes a message's time as Unix seconds; a value already in milliseconds is taken as it is. */
const gooseTime = (value: unknown): number | undefined => {
  const n = numberOf(value);
  if (n === undefined || n <= 0) return undefined;
  return n < 1e11 ? n * 1000 : n;
};

/** A session's `created_at`: SQLite's `CURRENT_TIMESTAMP` (`YYYY-MM-DD HH:MM:SS`, UTC) or RFC 3339. */
export const gooseTimestamp = (value: unknown): number | undefined => {
  if (typeof value === 'number') return gooseTime(value);
  if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\d[ T]\d\d:\d\d/.test(value)) return undefined;
  const iso = value.replace(' ', 'T');
  const at = Date.parse(/(?:Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`);
  return Number.isFinite(at) ? at : undefined;
};

const writtenFile = (name: string, input: Readonly<Record<string, unknown>> | undefined): string | undefined => {
  if (!input || !/(?:^|__)text_editor$|(?:^|__)(?:write|edit)(?:_file)?$/.test(name)) return undefined;
  const command = input.command;
  if (typeof command === 'string' && !WRITING_COMMANDS.has(command)) return undefined;
  const file = input.path ?? input.file_path;
  return typeof file === 'string' && file !== '' ? file : undefined;
};

const modelOf = (raw: unknown): string | undefined => {
  const json = parseJsonValue(raw);
  const parsed = json.ok ? gooseModelConfigSchema.safeParse(json.value) : undefined;
  return parsed?.success ? parsed.data.model_name : undefined;
};

const visibleToUser = (raw: unknown): boolean => {
  if (raw === null || raw === undefined) return true;
  const json = parseJsonValue(raw);
  const parsed = json.ok ? gooseMetadataSchema.safeParse(json.value) : undefined;
  return parsed?.success ? parsed.data.userVisible !== false : true;
};

const textOf = (items: readonly GooseContent[]): string | undefined => {
  const text = items
    .flatMap((item) => (item.type === 'text' && item.text?.trim() ? [item.text] : []))
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
};

/**
 * One session's replay: its meta patch, the diagnostics of content it could not use, the events of
 * its messages in order, then its usage (Goose keeps running totals per session).
 */
export const mapGooseSession = (spec: GooseSpec, session: GooseSessionRow, messages: readonly GooseMessageRow[]): SessionEvent[] => {
  const ref: Ref = { agent: 'goose', sessionId: session.id };
  const diagnostics: SessionEvent[] = [];
  const unknown = createUnknownRecords('goose', 'Goose');
  const where = { sessionId: session.id, path: spec.dbPath };
  const timeline: SessionEvent[] = [];

  for (const row of messages) {
    const json = parseJsonValue(row.content_json);
    const list = json.ok ? gooseContentListSchema.safeParse(json.value) : undefined;
    if (!list?.success) {
      diagnostics.push(recordDiagnostic(ref, spec.dbPath, `message ${row.id}: content ${json.ok ? 'is not a list of {type, ...}' : json.error}`));
      continue;
    }
    const items: GooseContent[] = [];
    for (const raw of list.data) {
      if (IGNORED_CONTENT_TYPES.has(raw.type)) continue;
      const item = gooseContentSchema.safeParse(raw);
      if (item.success) items.push(item.data);
      else diagnostics.push(...unknown.once(`content:${raw.type}`, `message content type "${raw.type}"`, where));
    }
    const at = gooseTime(row.created_timestamp) ?? 0;
    const role = stringOf(row.role);
    // Context Goose adds for the model alone (a compaction's summary, a nudge to go on): no message of the person's.
    const text = visibleToUser(row.metadata_json) ? textOf(items) : undefined;
    if (role === 'user') {
      if (text !== undefined) timeline.push(turnEvent(ref, at, 'user', text));
      for (const item of items) {
        if (item.type !== 'toolResponse') continue;
        const failed = item.toolResult?.status === 'error' || item.toolResult?.value?.isError === true;
        timeline.push(toolResultEvent(ref, at, item.id ?? '', failed));
      }
    } else if (role === 'assistant') {
      const calls = items.filter((item): item is Extract<GooseContent, { type: 'toolRequest' | 'frontendToolRequest' }> => item.type === 'toolRequest' || item.type === 'frontendToolRequest');
      if (text !== undefined) timeline.push(turnEvent(ref, at, 'assistant', text));
      else if (calls.length === 0 && items.some((item) => item.type === 'thinking' || item.type === 'redactedThinking')) timeline.push(thinkingEvent(ref, at));
      for (const call of calls) {
        const name = call.toolCall?.value?.name ?? '';
        timeline.push(toolCallEvent(ref, at, name, call.id ?? `${row.id}:${name}`, writtenFile(name, call.toolCall?.value?.arguments)));
      }
      // A tool waiting for approval, or a question to the person: the session waits for its user.
      if (items.some((item) => item.type === 'actionRequired' || item.type === 'toolConfirmationRequest')) timeline.push(turnEvent(ref, at, 'assistant', undefined, false));
    } else {
      diagnostics.push(...unknown.once(`role:${role ?? ''}`, `message role "${role ?? ''}"`, where));
    }
  }

  const input = numberOf(session.accumulated_input_tokens) ?? 0;
  const output = numberOf(session.accumulated_output_tokens) ?? 0;
  const cost = numberOf(session.accumulated_cost);
  const lastAt = timeline.reduce((newest, event) => ('at' in event && typeof event.at === 'number' && event.at > newest ? event.at : newest), 0);
  const usage = input > 0 || output > 0 || (cost ?? 0) > 0 ? [{ ...usageEvent(ref, lastAt, session.id, { input, output, cacheCreation: 0, cacheRead: 0 }, cost), mode: 'total' as const }] : [];

  const type = stringOf(session.session_type) ?? 'user';
  const own = OWN_TYPES.has(type);
  const patch: SessionMetaPatch = {
    cwd: stringOf(session.working_dir),
    agentName: stringOf(session.name) ?? stringOf(session.description),
    model: modelOf(session.model_config_json),
    source: 'cli',
    isSidechain: !own,
    createdAt: gooseTimestamp(session.created_at),
    path: spec.dbPath,
    resumeCommand: own ? spec.resumeCommand(session.id) : undefined,
  };
  return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'meta', patch }, ...diagnostics, ...timeline, ...usage];
};
