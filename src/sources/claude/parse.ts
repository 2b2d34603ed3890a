// Checked against (issue 13; facts only, no third-party file copied):
// - Claude Code 1.0.98: sub-agent (Task) turns written inline in the main transcript with
//   `isSidechain: true` (real transcripts of issue 13) -> a file is a sub-agent only by path or first
//   message line; inline lines add usage only.
// - 2.0.14-2.0.31: `summary` records of other sessions (leafUuid of another file), `agent-*.jsonl`
//   sidechains beside the transcripts.
// - 2.1.7: assistant lines holding only a `thinking` block (activity).
// - 2.1.37-2.1.245 record inventory (empathic/toolpath docs/agents/formats/claude-code, observed
//   there): `permission-mode`, `mode`, `atis-latch`, `ai-title` {aiTitle}, `agent-name`, `pr-link`,
//   `frame-link`, `relocated`, `worktree-state`, `attachment`, `queue-operation`, `last-prompt`,
//   `progress`, `compact_boundary` also as a record type of its own, `system` subtypes.
// - 2.1.25x-2.1.278 (a public cross-agent catalog): `summary` no longer written, `ai-title` is the
//   title; `cost-state`, `continued-in`, `content-replacement`, `artifact-*` bookkeeping records;
//   sub-agents under `<session>/subagents/agent-<id>.jsonl` (+ `.meta.json`).
// - 2.1.118+: a fork sub-agent starts with a `fork-context-ref` record instead of copies of its
//   parent's conversation (CHANGELOG; public readers skip it and disagree on its fields). Earlier
//   forked sub-agents (and compaction's `agent-acompact-*`) start with those copies: continuation.ts.
import type { SessionEvent, SessionMetaPatch, SessionState, TokenCounts } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { FAST_PATH_MIN_BYTES, jsonKey, skimString, skimType, valueKey } from '../internal/skim.js';
import { asCopied } from '../internal/copies.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { createBackgroundForkCheck, createContinuationCheck, createForkCopyCheck } from './continuation.js';
import { readEarlierLines } from './earlier-lines.js';
import { isClaudeRecord } from './guard.js';
import type { ClaudeFileKind } from './paths.js';
import { claudeRecordSchema, type ClaudeBlock, type ClaudeRecord } from './schema.js';

const agent = 'claude';

/**
 * Record types Claude Code writes that carry nothing agentwatch shows; skipped before JSON.parse
 * (some are large). Every other type that is not handled below is counted as unknown_record.
 */
const IGNORED_TYPES = new Set([
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'attachment',
  'last-prompt',
  'tag',
  // 2.1.x session bookkeeping (one payload key each, no timestamp).
  'permission-mode',
  'mode',
  'atis-latch',
  'agent-name',
  'pr-link',
  'frame-link',
  'relocated',
  'worktree-state',
  'cost-state',
  'continued-in',
  'content-replacement',
  'artifact-comment-monitor',
  'artifact-autoreact-ledger',
  // 2.1.2xx: Remote Control bridge and agent settings bookkeeping.
  'bridge-session',
  'agent-setting',
  // 2.1.118+: a fork sub-agent's pointer to the parent conversation it inherits, in place of copies
  // of it (its fields are reported differently by different readers; nothing here counts).
  'fork-context-ref',
]);
/** `system` subtypes known to carry nothing more than their timestamp (the list is open-ended upstream). */
const KNOWN_SYSTEM_SUBTYPES = new Set([
  'compact_boundary',
  'bridge_status',
  'local_command',
  'away_summary',
  'api_error',
  'informational',
  'scheduled_task_fire',
  'model_refusal_fallback',
  'stop_hook_summary',
  'turn_duration',
  'agents_killed',
  'task_started',
  'task_progress',
  'task_notification',
  'init',
]);
/** Content block types of user/assistant messages (the Messages API's, as Claude Code stores them). */
const KNOWN_BLOCKS = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'image',
  'document',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
]);
/** Tools whose `input.file_path` (or notebook path) is a file the agent wrote. */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

const TOOL_USE_ID = jsonKey('tool_use_id');
const TIMESTAMP = jsonKey('timestamp');
const UUID = jsonKey('uuid');
const ID = jsonKey('id');
const NAME = jsonKey('name');
const TOOL_USE = Buffer.from('"type":"tool_use"');
const IS_ERROR = Buffer.from('"is_error":true');
/** A raw key can only be a key (inside a JSON string its quotes would be escaped). */
const SIDECHAIN = Buffer.from('"isSidechain":true');
const SIDECHAIN_KEY = Buffer.from('"isSidechain":');
const TRUE = Buffer.from('true');
/** Claude Code writes `isSidechain` among a record's first keys, before the message and its output. */
const SIDECHAIN_HEAD_BYTES = 1024;

/**
 * The record's own `isSidechain` flag. Found in the line's first bytes, it is the top-level key
 * (nested content comes later), so a multi-MB tool output is not scanned a second time for it;
 * elsewhere, any raw `"isSidechain":true` counts (the former whole-line check).
 */
export const isSidechainLine = (line: Buffer): boolean => {
  const at = line.subarray(0, SIDECHAIN_HEAD_BYTES).indexOf(SIDECHAIN_KEY);
  if (at === -1) return line.includes(SIDECHAIN);
  const value = at + SIDECHAIN_KEY.length;
  return value + TRUE.length <= line.length && line.compare(TRUE, 0, TRUE.length, value, value + TRUE.length) === 0;
};
/**
 * Message text kept whole when a long line is parsed (other long strings are cut): a prompt is
 * `content` (string) or `text` blocks; an answer's `text` blocks (its tool inputs, which hold whole
 * files under `content`, are still cut).
 */
const USER_TEXT_KEYS = [valueKey('text'), valueKey('content')];
const ASSISTANT_TEXT_KEYS = [valueKey('text')];
/** Message uuids remembered per file for summaries written after their leaf (newest kept). */
const SEEN_UUIDS_MAX = 4096;

/**
 * Fast path for the bulk of a transcript: a user line carrying tool results (file contents,
 * command output). Only the result ids, their error flags and the line's timestamp matter, and
 * they can be found without parsing the output. Undefined when the line is not that shape.
 */
export const skimToolResults = (line: Buffer): { readonly at: number; readonly results: readonly { callId: string; isError: boolean }[] } | undefined => {
  let id = skimString(line, TOOL_USE_ID);
  if (!id) return undefined;
  const results: { callId: string; isError: boolean }[] = [];
  while (id) {
    const next = skimString(line, TOOL_USE_ID, { from: id.end });
    const error = line.indexOf(IS_ERROR, id.end);
    results.push({ callId: id.value, isError: error !== -1 && (next === undefined || error < next.end) });
    id = next;
  }
  // The record's own timestamp is its last top-level key; nested output never has raw keys.
  return { at: epochMs(skimString(line, TIMESTAMP, { last: true })?.value), results };
};

/** FNV-1a, 32 bits: message uuids compared within one file, where a collision is negligible. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};

export const claudeResumeCommand = (sessionId: string): string => `claude --resume ${sessionId}`;

const textOf = (content: string | readonly ClaudeBlock[] | undefined): string => {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n');
};

const writtenPath = (block: ClaudeBlock): string | undefined => {
  if (!block.name || !WRITE_TOOLS.has(block.name)) return undefined;
  const value = block.input?.file_path ?? block.input?.notebook_path;
  return typeof value === 'string' && value ? value : undefined;
};

const tokenCount = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

/**
 * The advisor calls of a turn (`usage.iterations` entries of type `advisor_message`), by their
 * place in the list: billed apart from the turn's own counters, which leave them out. Anything
 * else in the list (the executor's calls, an unbilled fallback attempt) is already in, or not billed.
 */
const advisorUsages = (iterations: unknown): [number, TokenCounts][] => {
  if (!Array.isArray(iterations)) return [];
  return iterations.flatMap((entry: unknown, i): [number, TokenCounts][] => {
    if (typeof entry !== 'object' || entry === null || (entry as { type?: unknown }).type !== 'advisor_message') return [];
    const u = entry as Record<string, unknown>;
    return [[i, { input: tokenCount(u.input_tokens), output: tokenCount(u.output_tokens), cacheCreation: tokenCount(u.cache_creation_input_tokens), cacheRead: tokenCount(u.cache_read_input_tokens) }]];
  });
};

/** The message id of the usage `state` counted last (usage ids keep their order, newest last; advisor calls carry a suffix). */
const lastUsageId = (state: SessionState): string | undefined => Object.keys(state.usageByMessage).at(-1)?.split(':advisor:')[0];

/** A line a branch copied from the session it branched from (`forkedFrom`, schema.ts). A continuation's copies: continuation.ts. */
const isCopied = (record: ClaudeRecord): boolean => typeof record.forkedFrom === 'object' && record.forkedFrom !== null;

/**
 * The line parser of one Claude Code transcript (AGENT-FORMATS.md 1.2), with the corrections
 * PRODUCT.md section 6 asks for: `compact_boundary` is compaction, `summary` is a title,
 * `custom-title` names the session, split responses count once (message id), tool results are
 * matched by id, injected context does not count as a user message.
 */
export const createClaudeParser = (file: string, kind: ClaudeFileKind, resumed: boolean, restored?: SessionState, born?: number): FileParser => {
  const { sessionId } = kind;
  const ref = { agent, sessionId } as const;
  const where = { sessionId, path: file };
  // What this parser (or, after a warm start, the restored state) already told the fold, so meta
  // is emitted only on change and the first cwd keeps winning across restarts.
  const known: { cwd?: string; version?: string; gitBranch?: string; model?: string } = {
    ...(restored?.cwd ? { cwd: restored.cwd } : {}),
    ...(restored?.version ? { version: restored.version } : {}),
    ...(restored?.gitBranch ? { gitBranch: restored.gitBranch } : {}),
    ...(restored?.model ? { model: restored.model } : {}),
  };
  let sawCustomTitle = false;
  const unknown = createUnknownRecords(agent, 'Claude Code');
  // A continued session's copies of the one it continued (1.0.x; continuation.ts).
  const continued = kind.kind === 'main' ? createContinuationCheck(file, sessionId, resumed) : undefined;
  // A background session's copies of the foreground one (2.1.x; continuation.ts).
  const backgrounded = kind.kind === 'main' ? createBackgroundForkCheck(file, resumed) : undefined;
  // An interactive fork's copies of the session it forked (`--fork-session`), a forked sub-agent's
  // of its parent session (continuation.ts).
  const forked = createForkCopyCheck(file, kind, resumed, born);
  // A file is a sub-agent transcript by its path, or when its FIRST message line is a sidechain.
  // Claude Code 1.0.x also wrote sub-agent turns inline in the main transcript (isSidechain on
  // those lines): they never make the file a sub-agent, and they do not decide its activity.
  // Resumed past the file's start, what its earlier lines decided is what the restored state says:
  // a file may begin with lines that decide none of it (summaries, mode and snapshot records).
  const messageRead = restored === undefined || restored.lastTurn !== 'none' || restored.userMessages + restored.assistantMessages > 0;
  let sidechainFile: boolean | undefined = kind.kind !== 'main' || restored?.isSidechain === true ? true : resumed && messageRead ? false : undefined;
  let sawTimestamp = resumed && (restored === undefined || restored.createdAt > 0);
  let sawParent = resumed && (restored === undefined || restored.parentId !== '');
  // Resumed in the middle of a response (one line per content block, all with its message id, written
  // as the answer streams), its id is the one the restored state last counted usage under.
  let lastAssistantId = resumed && restored && (restored.lastTurn === 'assistant' || restored.lastTurn === 'tool_call') ? lastUsageId(restored) : undefined;
  // A summary names this session only when its leafUuid is a message of this same file.
  const pendingSummaries = new Map<string, string>();
  // 32-bit hashes, not the strings: a few bytes per message of every watched transcript.
  const seenUuids = new Set<number>();
  const addHash = (hash: number): void => {
    seenUuids.add(hash);
    if (seenUuids.size > SEEN_UUIDS_MAX) for (const old of seenUuids) { seenUuids.delete(old); break; }
  };
  // Resumed past the file's start: its earlier lines are read once, when a title or summary first
  // needs them (earlier-lines.ts), as if this parser had read them itself.
  let earlierRead = !resumed;
  const readEarlier = (): void => {
    if (earlierRead) return;
    earlierRead = true;
    const earlier = readEarlierLines(file, restored?.checkpoint?.offset ?? 0);
    if (!earlier) return;
    if (earlier.renamed) sawCustomTitle = true;
    const since = [...seenUuids];
    seenUuids.clear();
    for (const uuid of earlier.uuids) addHash(fnv1a(uuid));
    for (const hash of since) addHash(hash);
  };
  const rememberUuid = (uuid: string | undefined): SessionEvent[] => {
    if (!uuid) return [];
    addHash(fnv1a(uuid));
    const summary = pendingSummaries.get(uuid);
    if (summary === undefined) return [];
    pendingSummaries.delete(uuid);
    return sawCustomTitle ? [] : [{ type: 'meta', ...ref, patch: { agentName: summary } }];
  };

  const metaOf = (record: ClaudeRecord, at: number): SessionEvent[] => {
    const patch: { -readonly [K in keyof SessionMetaPatch]: SessionMetaPatch[K] } = {};
    // cwd: the first one names the session's project (later `cd`s do not move it).
    if (record.cwd && known.cwd === undefined) patch.cwd = known.cwd = record.cwd;
    if (record.version && record.version !== known.version) patch.version = known.version = record.version;
    if (record.gitBranch && record.gitBranch !== known.gitBranch) patch.gitBranch = known.gitBranch = record.gitBranch;
    const model = record.message?.model;
    if (record.type === 'assistant' && model && model !== '<synthetic>' && model !== known.model) patch.model = known.model = model;
    if (!sawTimestamp && at > 0) {
      sawTimestamp = true;
      patch.createdAt = at;
    }
    // An `agent-*.jsonl` beside the transcripts (2.0.x) names its parent in every record's sessionId.
    if (kind.kind === 'legacy-agent' && !sawParent && record.sessionId && record.sessionId !== sessionId) {
      sawParent = true;
      patch.parentId = record.sessionId;
    }
    if (sidechainFile === undefined && (record.type === 'user' || record.type === 'assistant')) {
      sidechainFile = record.isSidechain === true;
      if (sidechainFile) {
        patch.isSidechain = true;
        if (record.sessionId && record.sessionId !== sessionId) patch.parentId = record.sessionId;
      }
    }
    return Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, at, patch }] : [];
  };

  const userEvents = (record: ClaudeRecord, at: number): SessionEvent[] => {
    const content = record.message?.content;
    const results = Array.isArray(content) ? content.filter((b) => b.type === 'tool_result') : [];
    if (results.length > 0) {
      return results.map((b) => ({ type: 'tool_result', ...ref, at, callId: b.tool_use_id, isError: b.is_error === true }));
    }
    const events: SessionEvent[] = [];
    const text = textOf(content);
    // Context Claude Code adds itself: a meta line, a compaction summary, a line it marks as its
    // own (`promptSource: system`), a background task's notification (written without isMeta).
    const injected = record.isMeta === true || record.isCompactSummary === true || record.promptSource === 'system' || text.trimStart().startsWith('<task-notification>');
    events.push({ type: 'turn', ...ref, at, role: 'user', text, ...(injected ? { counts: false } : {}) });
    return events;
  };

  const assistantEvents = (record: ClaudeRecord, at: number): SessionEvent[] => {
    const message = record.message;
    if (!message) return [];
    const events: SessionEvent[] = [];
    const blocks = Array.isArray(message.content) ? message.content : [];
    const text = textOf(message.content);
    // A block of extended thinking is written when it ends, long before the answer: the model is
    // still working, so it is not an answer (the session stays "thinking"); only its usage counts.
    const thinkingOnly = blocks.length > 0 && blocks.every((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
    // ...but it is activity: the model is working (thinking), and the last activity moves.
    if (thinkingOnly) events.push({ type: 'thinking', ...ref, at });
    else {
      // One response is written as one line per content block, all with the same message id.
      const firstLine = message.id === undefined || message.id !== lastAssistantId;
      lastAssistantId = message.id;
      if (firstLine || text) events.push({ type: 'turn', ...ref, at, role: 'assistant', text: text, ...(firstLine ? {} : { counts: false }) });
    }
    for (const block of blocks) {
      if (block.type !== 'tool_use' || !block.name) continue;
      events.push({ type: 'tool_call', ...ref, at, name: block.name, callId: block.id, filePath: writtenPath(block) });
    }
    const usage = message.usage;
    // Each under an id of its own: a later line of the same response repeats it, and replaces it.
    if (message.id) for (const [i, advisor] of advisorUsages(usage?.iterations)) events.push({ type: 'usage', ...ref, at, messageId: `${message.id}:advisor:${i}`, tokens: advisor });
    if (usage || record.costUSD !== undefined) {
      events.push({
        type: 'usage',
        ...ref,
        at,
        messageId: message.id,
        tokens: {
          input: usage?.input_tokens ?? 0,
          output: usage?.output_tokens ?? 0,
          cacheCreation: usage?.cache_creation_input_tokens ?? 0,
          cacheRead: usage?.cache_read_input_tokens ?? 0,
        },
        ...(record.costUSD !== undefined ? { costUsd: record.costUSD } : {}),
      });
    }
    return events;
  };

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
    const named = rememberUuid(record.uuid);
    const at = epochMs(record.timestamp);
    const typed = typedEvents(record, at);
    const message = record.type === 'user' || record.type === 'assistant';
    const copy = isCopied(record) || (message && copiedHere(record));
    const events = copy ? asCopied(typed) : typed;
    const undated = undatedRecord('claude', record.timestamp, at, { sessionId, path: file });
    return named.length > 0 || undated.length > 0 ? [...undated, ...named, ...events] : events;
  };

  const typedEvents = (record: ClaudeRecord, at: number): SessionEvent[] => {
    if (record.isSidechain === true && sidechainFile === false) return inlineSidechainEvents(record, at);
    switch (record.type) {
      case 'user':
        return [...metaOf(record, at), ...unknownBlocks(record), ...userEvents(record, at)];
      case 'assistant':
        return [...metaOf(record, at), ...unknownBlocks(record), ...assistantEvents(record, at)];
      case 'system': {
        const subtype = record.subtype;
        const unknownSubtype = subtype !== undefined && !KNOWN_SYSTEM_SUBTYPES.has(subtype) ? unknownRecord(`system record subtype "${subtype}"`, `system:${subtype}`, record) : [];
        return [...metaOf(record, at), ...unknownSubtype, ...(subtype === 'compact_boundary' ? [{ type: 'compaction', ...ref, at, phase: 'start' } as const] : [])];
      }
      case 'compact_boundary':
        // Some 2.1.x builds write the boundary as a record type of its own instead of a system subtype.
        return [...metaOf(record, at), { type: 'compaction', ...ref, at, phase: 'start' }];
      case 'custom-title':
        if (!record.customTitle) return [];
        sawCustomTitle = true;
        return [{ type: 'meta', ...ref, patch: { agentName: record.customTitle } }];
      case 'ai-title':
        // The generated title of 2.1.x (rewritten as the session goes on; summaries are no longer
        // written there). A user's rename wins.
        if (record.aiTitle) readEarlier();
        return record.aiTitle && !sawCustomTitle ? [{ type: 'meta', ...ref, patch: { agentName: record.aiTitle } }] : [];
      case 'summary': {
        // A title for /resume, but Claude Code also writes summaries of OTHER sessions into a file:
        // it names this one only when its leaf is a message of this file. A user's rename wins.
        if (!record.summary || !record.leafUuid) return [];
        readEarlier();
        if (sawCustomTitle) return [];
        if (seenUuids.has(fnv1a(record.leafUuid))) return [{ type: 'meta', ...ref, patch: { agentName: record.summary } }];
        pendingSummaries.set(record.leafUuid, record.summary);
        return [];
      }
      default:
        if (IGNORED_TYPES.has(record.type)) return [];
        return unknownRecord(`record type "${record.type}"`, `type:${record.type}`, record);
    }
  };

  /** Once per file and kind, with the version that wrote it (the record's own, else the file's so far). */
  const unknownRecord = (what: string, key: string, record: ClaudeRecord): SessionEvent[] => {
    const version = record.version ?? known.version;
    return unknown.once(key, what, { sessionId, path: file, ...(version ? { version } : {}) });
  };

  /** Content blocks of a shape this parser does not know (a newer Messages API block). */
  const unknownBlocks = (record: ClaudeRecord): SessionEvent[] => {
    const content = record.message?.content;
    if (!Array.isArray(content)) return [];
    return content.flatMap((block) => (KNOWN_BLOCKS.has(block.type) ? [] : unknownRecord(`content block "${block.type}"`, `block:${block.type}`, record)));
  };

  /**
   * A record over the line cap (a pasted log, a huge Write): its type and ids sit in its first
   * bytes, its timestamp in its last (the record's last key), so the session still moves.
   */
  const oversized = (head: Buffer, tail: Buffer): SessionEvent[] => {
    if (sidechainFile === false && isSidechainLine(head)) return [];
    const type = skimType(head)?.value;
    const at = epochMs(skimString(tail, TIMESTAMP, { last: true })?.value);
    if (at <= 0) return [];
    if (type === 'user') {
      const results: SessionEvent[] = [];
      for (let id = skimString(head, TOOL_USE_ID); id; id = skimString(head, TOOL_USE_ID, { from: id.end })) {
        results.push({ type: 'tool_result', ...ref, at, callId: id.value, isError: false });
      }
      return results.length > 0 ? results : [{ type: 'turn', ...ref, at, role: 'user', text: '' }];
    }
    if (type === 'assistant') {
      const call = head.indexOf(TOOL_USE);
      if (call !== -1) {
        const id = skimString(head, ID, { from: call });
        const name = skimString(head, NAME, { from: call });
        if (name) return [{ type: 'tool_call', ...ref, at, name: name.value, ...(id ? { callId: id.value } : {}) }];
      }
      return [{ type: 'turn', ...ref, at, role: 'assistant', text: '' }];
    }
    return [];
  };

  return {
    sessionId: () => sessionId,
    oversized,
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
      if (type?.value === 'user' && bytes.length > FAST_PATH_MIN_BYTES && sidechainFile !== undefined) {
        const skimmed = skimToolResults(bytes);
        if (skimmed) {
          // The record's own uuid is its last raw `uuid` key (nested tool output never has raw keys).
          // Scanning a multi-MB result for it costs a pass over the line: done only while a summary
          // waits for its leaf (a summary written after a tool-result leaf then names nothing).
          const named = pendingSummaries.size > 0 ? rememberUuid(skimString(bytes, UUID, { last: true })?.value) : [];
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
