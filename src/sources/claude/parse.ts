import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { clip, decodeLine, epochMs } from '../internal/line-helpers.js';
import { FAST_PATH_MIN_BYTES, jsonKey, skimString, skimType } from '../internal/skim.js';
import type { ClaudeFileKind } from './paths.js';
import { claudeRecordSchema, type ClaudeBlock, type ClaudeRecord } from './schema.js';

const agent = 'claude';

/** Record types that carry nothing agentwatch shows; skipped before JSON.parse (they can be large). */
const IGNORED_TYPES = new Set(['file-history-snapshot', 'progress', 'queue-operation', 'attachment', 'last-prompt', 'tag']);
/** Tools whose `input.file_path` (or notebook path) is a file the agent wrote. */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

const TOOL_USE_ID = jsonKey('tool_use_id');
const TIMESTAMP = jsonKey('timestamp');
const IS_ERROR = Buffer.from('"is_error":true');

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

/**
 * The line parser of one Claude Code transcript (AGENT-FORMATS.md 1.2), with the corrections
 * PRODUCT.md section 6 asks for: `compact_boundary` is compaction, `summary` is a title,
 * `custom-title` names the session, split responses count once (message id), tool results are
 * matched by id, injected context does not count as a user message.
 */
export const createClaudeParser = (file: string, kind: ClaudeFileKind, resumed: boolean, restored?: SessionState): FileParser => {
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
  let sawSidechain = kind.kind !== 'main' || restored?.isSidechain === true;
  let sawTimestamp = resumed;
  let lastAssistantId: string | undefined;

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
    if (record.isSidechain === true && !sawSidechain) {
      sawSidechain = true;
      patch.isSidechain = true;
      if (record.sessionId && record.sessionId !== sessionId) patch.parentId = record.sessionId;
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
    const injected = record.isMeta === true || record.isCompactSummary === true;
    events.push({ type: 'turn', ...ref, at, role: 'user', text: clip(textOf(content)), ...(injected ? { counts: false } : {}) });
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
    if (!thinkingOnly) {
      // One response is written as one line per content block, all with the same message id.
      const firstLine = message.id === undefined || message.id !== lastAssistantId;
      lastAssistantId = message.id;
      if (firstLine || text) events.push({ type: 'turn', ...ref, at, role: 'assistant', text: clip(text), ...(firstLine ? {} : { counts: false }) });
    }
    for (const block of blocks) {
      if (block.type !== 'tool_use' || !block.name) continue;
      events.push({ type: 'tool_call', ...ref, at, name: block.name, callId: block.id, filePath: writtenPath(block) });
    }
    const usage = message.usage;
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

  const recordEvents = (record: ClaudeRecord): SessionEvent[] => {
    const at = epochMs(record.timestamp);
    switch (record.type) {
      case 'user':
        return [...metaOf(record, at), ...userEvents(record, at)];
      case 'assistant':
        return [...metaOf(record, at), ...assistantEvents(record, at)];
      case 'system':
        return [...metaOf(record, at), ...(record.subtype === 'compact_boundary' ? [{ type: 'compaction', ...ref, at, phase: 'start' } as const] : [])];
      case 'custom-title':
        if (!record.customTitle) return [];
        sawCustomTitle = true;
        return [{ type: 'meta', ...ref, patch: { agentName: record.customTitle } }];
      case 'summary':
        // A title for /resume (sometimes copied from another session); a user's rename wins.
        return record.summary && !sawCustomTitle ? [{ type: 'meta', ...ref, patch: { agentName: record.summary } }] : [];
      default:
        return [];
    }
  };

  return {
    sessionId: () => sessionId,
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
      if (type?.value === 'user' && bytes.length > FAST_PATH_MIN_BYTES) {
        const skimmed = skimToolResults(bytes);
        if (skimmed) return skimmed.results.map((r) => ({ type: 'tool_result', ...ref, at: skimmed.at, callId: r.callId, isError: r.isError }));
      }
      const decoded = decodeLine(agent, claudeRecordSchema, bytes, where);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      return recordEvents(decoded.value);
    },
  };
};
