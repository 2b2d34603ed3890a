import { withHourWrites, type SessionEvent, type TokenCounts } from '../../core/session.js';
import type { ClaudeBlock, ClaudeRecord } from './schema.js';

/** The events of Claude Code's `user` and `assistant` records: turns, tool calls and results, usage. */

/** Tools whose `input.file_path` (or notebook path) is a file the agent wrote. */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

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
const advisorUsages = (iterations: unknown): [number, TokenCounts, string | undefined][] => {
  if (!Array.isArray(iterations)) return [];
  return iterations.flatMap((entry: unknown, i): [number, TokenCounts, string | undefined][] => {
    if (typeof entry !== 'object' || entry === null || (entry as { type?: unknown }).type !== 'advisor_message') return [];
    const u = entry as Record<string, unknown>;
    const tokens = { input: tokenCount(u.input_tokens), output: tokenCount(u.output_tokens), cacheCreation: tokenCount(u.cache_creation_input_tokens), cacheRead: tokenCount(u.cache_read_input_tokens) };
    return [[i, tokens, typeof u.model === 'string' && u.model !== '' ? u.model : undefined]];
  });
};

/**
 * Of `written` cache tokens, those kept for an hour (`cache_creation.ephemeral_1h_input_tokens`);
 * 0 when the record has no split or a split that is not counts. Never more than were written.
 */
const hourWrites = (split: unknown, written: number): number => {
  if (typeof split !== 'object' || split === null) return 0;
  return Math.min(written, tokenCount((split as Record<string, unknown>).ephemeral_1h_input_tokens));
};

type Ref = { readonly agent: 'claude'; readonly sessionId: string };

/** What Claude Code writes as a user line for a `!` command's or a local slash command's output: not a prompt. */
const ECHO_PREFIXES = ['<bash-stdout>', '<bash-stderr>', '<local-command-stdout>', '<local-command-stderr>', '<local-command-caveat>', '<task-notification>'];

/** The slash command a user line runs (`/init`), as typed or in Claude Code's `<command-name>` form. */
const commandOf = (text: string): string | undefined => {
  const tagged = /<command-name>\s*(\/[^\s<]+)\s*<\/command-name>/.exec(text);
  if (tagged) return tagged[1];
  return /^\s*(\/[a-z0-9:_-]+)(?:\s|$)/i.exec(text)?.[1];
};

/**
 * The events of user records. A line counts as a prompt only when a person wrote it: where the
 * version writes `origin`, its kind says so (`human`); else lines Claude Code adds itself are left
 * out (meta lines, compaction summaries, `promptSource: system`, command output), and so is the
 * second line a typed slash command is written as before the agent answers.
 */
export const createUserEvents = (ref: Ref): { readonly user: (record: ClaudeRecord, at: number) => SessionEvent[]; readonly answered: () => void } => {
  let lastCommand: string | undefined;
  return {
    answered: () => {
      lastCommand = undefined;
    },
    user: (record, at) => {
      const content = record.message?.content;
      const results = Array.isArray(content) ? content.filter((b) => b.type === 'tool_result') : [];
      if (results.length > 0) {
        return results.map((b) => ({ type: 'tool_result', ...ref, at, callId: b.tool_use_id, isError: b.is_error === true }));
      }
      const text = textOf(content);
      const lead = text.trimStart();
      const command = commandOf(text);
      const fromPerson = record.origin?.kind !== undefined ? record.origin.kind === 'human' : record.promptSource !== 'system';
      const injected =
        !fromPerson || record.isMeta === true || record.isCompactSummary === true || ECHO_PREFIXES.some((prefix) => lead.startsWith(prefix)) || (command !== undefined && command === lastCommand);
      if (!injected) lastCommand = command;
      return [{ type: 'turn', ...ref, at, role: 'user', text, ...(injected ? { counts: false } : {}) }];
    },
  };
};

/**
 * The events of a file's assistant records, in order. One response is written as one line per
 * content block, all with the same message id: only its first line counts as a turn.
 * `lastId` is the response the file was last in (resumed in the middle of one).
 */
export const createAssistantEvents = (ref: Ref, lastId: string | undefined): ((record: ClaudeRecord, at: number) => SessionEvent[]) => {
  let lastAssistantId = lastId;
  return (record, at) => {
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
    // The advisor's model prices its tokens.
    if (message.id) for (const [i, advisor, model] of advisorUsages(usage?.iterations)) events.push({ type: 'usage', ...ref, at, messageId: `${message.id}:advisor:${i}`, tokens: advisor, ...(model ? { model } : {}) });
    if (usage || record.costUSD !== undefined) {
      events.push({
        type: 'usage',
        ...ref,
        at,
        messageId: message.id,
        tokens: withHourWrites(
          {
            input: usage?.input_tokens ?? 0,
            output: usage?.output_tokens ?? 0,
            cacheCreation: usage?.cache_creation_input_tokens ?? 0,
            cacheRead: usage?.cache_read_input_tokens ?? 0,
          },
          hourWrites(usage?.cache_creation, usage?.cache_creation_input_tokens ?? 0),
        ),
        ...(record.costUSD !== undefined ? { costUsd: record.costUSD } : {}),
        ...(message.model && message.model !== '<synthetic>' ? { model: message.model } : {}),
      });
    }
    return events;
  };
};
