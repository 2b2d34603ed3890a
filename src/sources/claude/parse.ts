// The Claude Code versions this parser was checked against, and what each changed, are listed in
// docs/formats/claude.md ("Versions checked"). In short: 1.0.x wrote sub-agent turns inline
// (`isSidechain: true`: a file is a sub-agent only by path or first message line, inline lines
// add usage only); 2.0.x wrote `summary` records of other sessions and `agent-*.jsonl` sidechains;
// 2.1.x added the bookkeeping records, `ai-title` and `<session>/subagents/`. Forked sub-agents
// (and compaction's `agent-acompact-*`) that start with copies of their parent: continuation.ts.
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { FAST_PATH_MIN_BYTES, skimType, valueKey } from '../internal/skim.js';
import { asCopied } from '../internal/copies.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { createBackgroundForkCheck, createContinuationCheck, createForkCopyCheck } from './continuation.js';
import { isClaudeRecord } from './guard.js';
import { isSidechainLine, oversizedEvents, skimRecordUuid, skimToolResults } from './line-skim.js';
import { createAssistantEvents, createUserEvents } from './messages.js';
import type { ClaudeFileKind } from './paths.js';
import { IGNORED_TYPES, KNOWN_BLOCKS, KNOWN_SYSTEM_SUBTYPES } from './record-types.js';
import { claudeRecordSchema, type ClaudeRecord } from './schema.js';
import { createSessionMeta } from './session-meta.js';
import { createTitles } from './titles.js';
import { claudeResumeCommand } from './descriptor.js';

const agent = 'claude';

/**
 * Message text kept whole when a long line is parsed (other long strings are cut): a prompt is
 * `content` (string) or `text` blocks; an answer's `text` blocks (its tool inputs, which hold whole
 * files under `content`, are still cut).
 */
const USER_TEXT_KEYS = [valueKey('text'), valueKey('content')];
const ASSISTANT_TEXT_KEYS = [valueKey('text')];

/** The message id of the usage `state` counted last (usage ids keep their order, newest last; advisor calls carry a suffix). */
const lastUsageId = (state: SessionState): string | undefined => Object.keys(state.usageByMessage).at(-1)?.split(':advisor:')[0];

/** A line a branch copied from the session it branched from (`forkedFrom`, schema.ts). A continuation's copies: continuation.ts. */
const isCopied = (record: ClaudeRecord): boolean => typeof record.forkedFrom === 'object' && record.forkedFrom !== null;

/**
 * The line parser of one Claude Code transcript (docs/formats/claude.md), with the readings that
 * keep its facts true: `compact_boundary` is compaction, `summary` is a title,
 * `custom-title` names the session, split responses count once (message id), tool results are
 * matched by id, injected context does not count as a user message.
 */
export const createClaudeParser = (file: string, kind: ClaudeFileKind, resumed: boolean, restored?: SessionState, born?: number): FileParser => {
  const { sessionId } = kind;
  const ref = { agent, sessionId } as const;
  const where = { sessionId, path: file };
  const meta = createSessionMeta(kind, ref, resumed, restored);
  const titles = createTitles(file, ref, resumed, restored);
  // Resumed in the middle of a response (one line per content block, all with its message id, written
  // as the answer streams), its id is the one the restored state last counted usage under.
  const assistantEvents = createAssistantEvents(ref, resumed && restored && (restored.lastTurn === 'assistant' || restored.lastTurn === 'tool_call') ? lastUsageId(restored) : undefined);
  const userEvents = createUserEvents(ref);
  const unknown = createUnknownRecords(agent, 'Claude Code');
  // A continued session's copies of the one it continued (1.0.x; continuation.ts).
  const continued = kind.kind === 'main' ? createContinuationCheck(file, sessionId, resumed) : undefined;
  // A background session's copies of the foreground one (2.1.x; continuation.ts).
  const backgrounded = kind.kind === 'main' ? createBackgroundForkCheck(file, resumed) : undefined;
  // An interactive fork's copies of the session it forked (`--fork-session`), a forked sub-agent's
  // of its parent session (continuation.ts).
  const forked = createForkCopyCheck(file, kind, resumed, born);

  /**
   * An inline sub-agent line of a main transcript: only its usage counts (the user paid for it),
   * marked as the sub-agent's, and the prompt a run begins with (no parent) counts the run.
   */
  const inlineSidechainEvents = (record: ClaudeRecord, at: number): SessionEvent[] => {
    if (record.type === 'user') return record.parentUuid === null ? [{ type: 'subagent_run', ...ref, at }] : [];
    if (record.type !== 'assistant') return [];
    return assistantEvents(record, at).flatMap((event): SessionEvent[] => (event.type === 'usage' ? [{ ...event, subagent: true }] : []));
  };

  /** A message line another transcript beside this one holds (continuation.ts). Every check sees every message line: each follows the file from its start. */
  const copiedHere = (record: ClaudeRecord): boolean => {
    const ofContinued = continued?.(record.sessionId, record.uuid) === true;
    const ofForeground = backgrounded?.(record) === true;
    const ofForked = forked?.(record) === true;
    return ofContinued || ofForeground || ofForked;
  };

  const recordEvents = (record: ClaudeRecord): SessionEvent[] => {
    const named = titles.rememberUuid(record.uuid);
    const at = epochMs(record.timestamp);
    const typed = typedEvents(record, at);
    const message = record.type === 'user' || record.type === 'assistant';
    const copy = isCopied(record) || (message && copiedHere(record));
    const events = copy ? asCopied(typed) : typed;
    const undated = undatedRecord('claude', record.timestamp, at, { sessionId, path: file });
    return named.length > 0 || undated.length > 0 ? [...undated, ...named, ...events] : events;
  };

  const typedEvents = (record: ClaudeRecord, at: number): SessionEvent[] => {
    if (record.isSidechain === true && meta.sidechainFile() === false) return inlineSidechainEvents(record, at);
    switch (record.type) {
      case 'user':
        return [...meta.of(record, at), ...unknownBlocks(record), ...userEvents.user(record, at)];
      case 'assistant':
        userEvents.answered();
        return [...meta.of(record, at), ...unknownBlocks(record), ...assistantEvents(record, at)];
      case 'system': {
        const subtype = record.subtype;
        const unknownSubtype = subtype !== undefined && !KNOWN_SYSTEM_SUBTYPES.has(subtype) ? unknownRecord(`system record subtype "${subtype}"`, `system:${subtype}`, record) : [];
        return [...meta.of(record, at), ...unknownSubtype, ...(subtype === 'compact_boundary' ? [{ type: 'compaction', ...ref, at, phase: 'start' } as const] : [])];
      }
      case 'compact_boundary':
        // Some 2.1.x builds write the boundary as a record type of its own instead of a system subtype.
        return [...meta.of(record, at), { type: 'compaction', ...ref, at, phase: 'start' }];
      case 'custom-title':
        return titles.customTitle(record);
      case 'ai-title':
        return titles.aiTitle(record);
      case 'summary':
        return titles.summary(record);
      default:
        if (IGNORED_TYPES.has(record.type)) return [];
        return unknownRecord(`record type "${record.type}"`, `type:${record.type}`, record);
    }
  };

  /** Once per file and kind, with the version that wrote it (the record's own, else the file's so far). */
  const unknownRecord = (what: string, key: string, record: ClaudeRecord): SessionEvent[] => {
    const version = record.version ?? meta.version();
    return unknown.once(key, what, { sessionId, path: file, ...(version ? { version } : {}) });
  };

  /** Content blocks of a shape this parser does not know (a newer Messages API block). */
  const unknownBlocks = (record: ClaudeRecord): SessionEvent[] => {
    const content = record.message?.content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((block) => (KNOWN_BLOCKS.has(block.type) ? [] : unknownRecord(`content block "${block.type}"`, `block:${block.type}`, record)));
  };

  return {
    sessionId: () => sessionId,
    oversized: (head, tail, keys) => (meta.sidechainFile() === false && isSidechainLine(head) ? [] : oversizedEvents(ref, head, tail, keys)),
    start: () => {
      const patch: SessionMetaPatch = {
        path: file,
        source: 'cli',
        isSidechain: kind.kind !== 'main',
        ...(kind.kind === 'subagent' ? { parentId: kind.parentId } : {}),
        ...(kind.kind === 'main' ? { resumeCommand: claudeResumeCommand(sessionId) } : {}),
      };
      return [{ type: 'meta', ...ref, patch }];
    },
    line: (bytes) => {
      const type = skimType(bytes);
      if (type && IGNORED_TYPES.has(type.value)) return [];
      const sidechainFile = meta.sidechainFile();
      if (type?.value === 'user' && bytes.length > FAST_PATH_MIN_BYTES && sidechainFile !== undefined) {
        const skimmed = skimToolResults(bytes);
        if (skimmed) {
          // Scanning a multi-MB result for the record's uuid costs a pass over the line: done only
          // while a summary waits for its leaf (a summary written after a tool-result leaf then names nothing).
          const named = titles.waiting() ? titles.rememberUuid(skimRecordUuid(bytes)) : [];
          if (!sidechainFile && isSidechainLine(bytes)) return named;
          return [...named, ...skimmed.results.map((r): SessionEvent => ({ type: 'tool_result', ...ref, at: skimmed.at, callId: r.callId, isError: r.isError }))];
        }
      }
      const keep = type?.value === 'user' ? USER_TEXT_KEYS : type?.value === 'assistant' ? ASSISTANT_TEXT_KEYS : [];
      const decoded = decodeLine(agent, claudeRecordSchema, bytes, where, keep, isClaudeRecord);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      return recordEvents(decoded.value);
    },
  };
};
