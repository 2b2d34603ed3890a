// The pi releases and session file formats this parser was checked against: docs/formats/pi.md.
// pi records no app version in a session.
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { FAST_PATH_MIN_BYTES, jsonKey, skimString, skimType, valueKey } from '../internal/skim.js';
import { asCopied } from '../internal/copies.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { parentIdsOf } from './fork.js';
import { piResumeCommand } from './descriptor.js';
import type { PiFileKind } from './paths.js';
import { piEntrySchema, piMessageSchema, type PiBlock, type PiEntry, type PiUsage } from './schema.js';

const agent = 'pi';
const TOOL_RESULT_ROLE = Buffer.from('"role":"toolResult"');
/** A raw key-value pair can only be one (inside a string its quotes would be escaped). */
const USER_ROLE = Buffer.from('"role":"user"');
/**
 * Message text kept whole when a long line is parsed: a prompt is `content` (string) or `text`
 * blocks; an answer's `text` blocks (its tool calls' arguments, whole files, are still cut).
 */
const USER_TEXT_KEYS = [valueKey('text'), valueKey('content')];
const ASSISTANT_TEXT_KEYS = [valueKey('text')];
const TOOL_CALL_ID = jsonKey('toolCallId');
const TIMESTAMP = jsonKey('timestamp');
const IS_ERROR = Buffer.from('"isError":true');
/** Tools whose `arguments.path` is a file the agent wrote. */
const WRITE_TOOLS = new Set(['write', 'edit']);
/** Entry types agentwatch does not use, skipped before JSON.parse. */
const IGNORED_TYPES = new Set(['thinking_level_change', 'custom', 'custom_message', 'label']);
/** Entry types read only for the usage they may carry (pi 0.8x records what a summary cost). */
const USAGE_ONLY_TYPES = new Set(['branch_summary']);
/** Outside a string a key's quotes are raw: this is a `usage` key (of the message, or nested in it). */
const USAGE_KEY = Buffer.from('"usage":{');
/** Message roles that carry nothing agentwatch shows (`hookMessage` is the session format 2 name of `custom`). */
const IGNORED_ROLES = new Set(['bashExecution', 'custom', 'branchSummary', 'hookMessage']);
/** Content blocks of pi messages; others are unknown_record. */
const KNOWN_BLOCKS = new Set(['text', 'thinking', 'image', 'toolCall']);

const textOf = (content: string | readonly PiBlock[] | undefined): string =>
  typeof content === 'string'
    ? content
    : (content ?? [])
        .filter((b) => b.type === 'text')
        .map((b) => b.text ?? '')
        .join('\n');

/**
 * The line parser of one pi session file (docs/formats/pi.md): header cwd, model changes, user /
 * assistant / toolResult messages (tool calls matched by id), usage with pi's own recorded cost
 * (of answers, and since pi 0.8x of compaction and branch summaries and of tools that ran a model),
 * `compaction` entries and `session_info` names. The entries a fork copied from the session its
 * header names (`parentSession`) keep their history here but count their usage and messages
 * there (fork.ts).
 */
export const createPiParser = (file: string, kind: PiFileKind, resumed: boolean, restored?: SessionState): FileParser => {
  const { sessionId } = kind;
  const ref = { agent, sessionId } as const;
  let model: string | undefined;
  // Resumed past the file's start: the creation time is known once the restored state holds one
  // (the lines read before may all have been undated).
  let sawCreated = resumed && (restored === undefined || restored.createdAt > 0);
  // pi records no app version; the header's session format version (absent in format 1) is what
  // tells writers apart, so unknown kinds are counted with it.
  let format: string | undefined;
  // The ids of the session this file was forked from (fork.ts), read once from the header; a
  // warm start resumes past the header, and the state it restores already left the copies out.
  let parentIds: ReadonlySet<string> | undefined;
  // Oh My Pi's title slot (the first line, kept current in place) outranks the header's title,
  // which was made from the first prompt; a later `title_change` or `session_info` outranks both.
  let slotTitle = false;
  const unknown = createUnknownRecords(agent, 'pi');
  const unknownKind = (key: string, what: string): SessionEvent[] => unknown.once(key, what, { sessionId, path: file, ...(format ? { version: format } : {}) });
  const unknownBlocks = (content: unknown): SessionEvent[] =>
    Array.isArray(content) ? (content as PiBlock[]).flatMap((b) => (KNOWN_BLOCKS.has(b.type) ? [] : unknownKind(`block:${b.type}`, `content block "${b.type}"`))) : [];

  const meta = (patch: SessionMetaPatch, at?: number): SessionEvent[] => (Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, at, patch }] : []);
  /** Usage as pi records it, with its own cost; none when the record carries none. */
  const usageEvents = (usage: PiUsage | undefined, at: number, entryId: string | undefined): SessionEvent[] => {
    if (!usage) return [];
    const tokens = { input: usage.input ?? 0, output: usage.output ?? 0, cacheCreation: usage.cacheWrite ?? 0, cacheRead: usage.cacheRead ?? 0 };
    const cost = usage.cost?.total;
    return [{ type: 'usage', ...ref, at, messageId: entryId, tokens, ...(cost !== undefined ? { costUsd: cost } : {}) }];
  };

  const message = (raw: unknown, at: number, entryId: string | undefined): SessionEvent[] => {
    const parsed = piMessageSchema.safeParse(raw);
    if (!parsed.success) return [];
    const m = parsed.data;
    switch (m.role) {
      case 'user':
        return [{ type: 'turn', ...ref, at, role: 'user', text: textOf(m.content) }];
      case 'toolResult':
        // A tool that ran a model itself (pi 0.8x) records what it cost on its result.
        return [{ type: 'tool_result', ...ref, at, callId: m.toolCallId, isError: m.isError === true }, ...usageEvents(m.usage, at, entryId)];
      case 'assistant': {
        const events: SessionEvent[] = [];
        if (m.model && m.model !== model) events.push(...meta({ model: (model = m.model) }, at));
        events.push({ type: 'turn', ...ref, at, role: 'assistant', text: textOf(m.content) });
        for (const block of Array.isArray(m.content) ? m.content : []) {
          if (block.type !== 'toolCall' || !block.name) continue;
          const target = WRITE_TOOLS.has(block.name) ? block.arguments?.path : undefined;
          events.push({ type: 'tool_call', ...ref, at, name: block.name, callId: block.id, filePath: typeof target === 'string' ? target : undefined });
        }
        events.push(...usageEvents(m.usage, at, entryId));
        return events;
      }
      case 'compactionSummary':
        return [{ type: 'turn', ...ref, at, role: 'user', text: textOf(m.content), counts: false }];
      default:
        return IGNORED_ROLES.has(m.role) ? [] : unknownKind(`role:${m.role}`, `message role "${m.role}"`);
    }
  };

  /** The events of one decoded entry (a fork's copies are trimmed by the caller). */
  const entryEvents = (entry: PiEntry, at: number, created: SessionMetaPatch): SessionEvent[] => {
    switch (entry.type) {
      case 'title': {
        const title = entry.title?.trim();
        if (title) slotTitle = true;
        return meta({ ...(title ? { agentName: title } : {}), ...created }, at);
      }
      case 'title_change': {
        const title = entry.title?.trim();
        return meta({ ...(title ? { agentName: title } : {}), ...created }, at);
      }
      case 'session': {
        format = `session format ${entry.version ?? 1}`;
        if (!resumed && parentIds === undefined) parentIds = parentIdsOf(file, entry.parentSession);
        const title = slotTitle ? undefined : entry.title?.trim();
        return meta({ ...(entry.cwd ? { cwd: entry.cwd } : {}), ...(title ? { agentName: title } : {}), ...created }, at);
      }
      case 'model_change':
        if (!entry.modelId || entry.modelId === model) return meta(created, at);
        return meta({ model: (model = entry.modelId), ...created }, at);
      case 'message':
        return [...meta(created, at), ...unknownBlocks((entry.message as { content?: unknown } | undefined)?.content), ...message(entry.message, at, entry.id)];
      case 'compaction':
        return [...meta(created, at), { type: 'compaction', ...ref, at, phase: 'start' }, ...usageEvents(entry.usage, at, entry.id)];
      case 'branch_summary':
        return [...meta(created, at), ...usageEvents(entry.usage, at, entry.id)];
      case 'session_info':
        return entry.name ? meta({ agentName: entry.name, ...created }, at) : meta(created, at);
      default:
        return unknownKind(`type:${entry.type}`, `entry type "${entry.type}"`);
    }
  };

  return {
    sessionId: () => sessionId,
    start: () => [
      {
        type: 'meta',
        ...ref,
        patch: { path: file, source: 'cli', isSidechain: kind.kind === 'subagent', ...(kind.kind === 'main' ? { resumeCommand: piResumeCommand(sessionId) } : {}) },
      },
    ],
    line: (bytes) => {
      const type = skimType(bytes)?.value;
      if (type !== undefined && IGNORED_TYPES.has(type)) return [];
      if (type !== undefined && USAGE_ONLY_TYPES.has(type) && !bytes.includes(USAGE_KEY)) return [];
      // Tool results carry the tool's whole output: skim the id, flag and time instead of parsing
      // it, unless the result records usage of its own.
      if (type === 'message' && bytes.length > FAST_PATH_MIN_BYTES && bytes.includes(TOOL_RESULT_ROLE) && !bytes.includes(USAGE_KEY)) {
        const callId = skimString(bytes, TOOL_CALL_ID);
        if (callId && sawCreated) {
          return [{ type: 'tool_result', ...ref, at: epochMs(skimString(bytes, TIMESTAMP)?.value), callId: callId.value, isError: bytes.includes(IS_ERROR) }];
        }
      }
      const decoded = decodeLine(agent, piEntrySchema, bytes, { sessionId, path: file }, bytes.includes(USER_ROLE) ? USER_TEXT_KEYS : ASSISTANT_TEXT_KEYS);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      const entry = decoded.value;
      const at = epochMs(entry.timestamp);
      const created = !sawCreated && at > 0 ? ((sawCreated = true), { createdAt: at }) : {};
      const events = entryEvents(entry, at, created);
      const read = entry.id !== undefined && parentIds?.has(entry.id) === true ? asCopied(events) : events;
      const undated = undatedRecord(agent, entry.timestamp, at, { sessionId, path: file });
      return undated.length > 0 ? [...undated, ...read] : read;
    },
  };
};
