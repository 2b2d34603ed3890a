// The Droid session format this parser was checked against: docs/formats/droid.md.
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { valueKey } from '../internal/skim.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { droidResumeCommand } from './descriptor.js';
import { readDroidSettings, type DroidSettingsReader } from './settings.js';
import { droidMessageSchema, droidRecordSchema, type DroidBlock } from './schema.js';

const agent = 'droid';
const TEXT_KEYS = [valueKey('text')];
/** Record types that carry nothing agentwatch shows. */
const IGNORED_TYPES = new Set(['todo_state']);
/** Content blocks of Droid messages; others are unknown_record. */
const KNOWN_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'image', 'tool_use', 'tool_result']);
/** Tools whose `file_path` argument is a file the agent wrote. */
const WRITE_TOOLS = new Set(['Create', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

const textOf = (content: string | readonly DroidBlock[] | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('\n');

/**
 * The line parser of one Droid transcript (docs/formats/droid.md): `session_start` gives the
 * working directory, the title and, for a sub-agent's session, the session that called it;
 * `message` records are prompts, answers, tool calls and results; `compaction_state` a
 * compaction. Droid writes no usage into the transcript: the model and the running token totals
 * are in the settings file beside it, read again whenever a message arrives and it was rewritten.
 */
export const createDroidParser = (file: string, sessionId: string, resumed: boolean, restored?: SessionState, readSettings: DroidSettingsReader = readDroidSettings): FileParser => {
  const ref = { agent, sessionId } as const;
  const where = { sessionId, path: file };
  let sawCreated = resumed && (restored === undefined || restored.createdAt > 0);
  let model = resumed ? restored?.model : undefined;
  let settingsStamp: string | undefined;
  // Droid records no app version; the header's format version tells writers apart.
  let format: string | undefined;
  const unknown = createUnknownRecords(agent, 'Droid');
  const unknownKind = (key: string, what: string): SessionEvent[] => unknown.once(key, what, { ...where, ...(format ? { version: format } : {}) });

  const meta = (patch: SessionMetaPatch, at?: number): SessionEvent[] => (Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, ...(at !== undefined ? { at } : {}), patch }] : []);

  /** The settings file's model and totals, when it changed since last read. */
  const settingsEvents = (at?: number): SessionEvent[] => {
    const read = readSettings(file, settingsStamp);
    if (!read) return [];
    settingsStamp = read.stamp;
    const events: SessionEvent[] = [];
    if (read.model && read.model !== model) events.push(...meta({ model: (model = read.model) }, at));
    if (read.tokens) events.push({ type: 'usage', ...ref, ...(at !== undefined ? { at } : {}), tokens: read.tokens, mode: 'total' });
    return events;
  };

  const messageEvents = (raw: unknown, at: number): SessionEvent[] => {
    const parsed = droidMessageSchema.safeParse(raw);
    if (!parsed.success) return [];
    const m = parsed.data;
    const blocks = Array.isArray(m.content) ? m.content : [];
    const strange = blocks.flatMap((b) => (KNOWN_BLOCKS.has(b.type) ? [] : unknownKind(`block:${b.type}`, `content block "${b.type}"`)));
    switch (m.role) {
      case 'user': {
        const results = blocks.filter((b) => b.type === 'tool_result');
        // Tool results come back as a user message; text beside them is what Droid adds, not a prompt.
        if (results.length > 0) return [...strange, ...results.map((b): SessionEvent => ({ type: 'tool_result', ...ref, at, callId: b.tool_use_id, isError: b.is_error === true }))];
        return [...strange, { type: 'turn', ...ref, at, role: 'user', text: textOf(m.content) }];
      }
      case 'assistant': {
        const events: SessionEvent[] = [...strange];
        if (m.model && m.model !== model) events.push(...meta({ model: (model = m.model) }, at));
        const text = textOf(m.content);
        const calls = blocks.filter((b) => b.type === 'tool_use' && b.name);
        if (text.trim() !== '') events.push({ type: 'turn', ...ref, at, role: 'assistant', text });
        for (const call of calls) {
          const target = WRITE_TOOLS.has(call.name ?? '') ? call.input?.file_path : undefined;
          events.push({ type: 'tool_call', ...ref, at, name: call.name ?? '', callId: call.id, filePath: typeof target === 'string' ? target : undefined });
        }
        if (text.trim() === '' && calls.length === 0) events.push({ type: 'thinking', ...ref, at });
        return events;
      }
      default:
        return [...strange, ...unknownKind(`role:${m.role}`, `message role "${m.role}"`)];
    }
  };

  return {
    sessionId: () => sessionId,
    start: () => [{ type: 'meta', ...ref, patch: { path: file, source: 'cli', resumeCommand: droidResumeCommand(sessionId) } }, ...settingsEvents()],
    line: (bytes) => {
      const decoded = decodeLine(agent, droidRecordSchema, bytes, where, TEXT_KEYS);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      const r = decoded.value;
      const at = epochMs(r.timestamp);
      const created: SessionMetaPatch = !sawCreated && at > 0 ? ((sawCreated = true), { createdAt: at }) : {};
      let events: SessionEvent[];
      switch (r.type) {
        case 'session_start': {
          if (r.version !== undefined) format = `session format ${r.version}`;
          const title = (r.sessionTitle ?? r.title)?.trim();
          const patch: SessionMetaPatch = {
            ...(r.cwd ? { cwd: r.cwd } : {}),
            ...(title ? { agentName: title } : {}),
            ...(r.callingSessionId ? { isSidechain: true, parentId: r.callingSessionId } : {}),
            ...created,
          };
          events = meta(patch, at > 0 ? at : undefined);
          break;
        }
        case 'message':
          events = [...meta(created, at), ...messageEvents(r.message, at), ...settingsEvents(at)];
          break;
        case 'compaction_state':
          events = [...meta(created, at), { type: 'compaction', ...ref, at, phase: 'start' }];
          break;
        default:
          events = IGNORED_TYPES.has(r.type) ? [] : unknownKind(`type:${r.type}`, `record type "${r.type}"`);
      }
      const undated = undatedRecord(agent, r.timestamp, at, where);
      return undated.length > 0 ? [...undated, ...events] : events;
    },
  };
};
