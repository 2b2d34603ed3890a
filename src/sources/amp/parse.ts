// The Amp releases this parser was checked against, and why new threads come only through
// `amp threads export` (export-sync.ts): docs/formats/amp.md.
import path from 'node:path';
import type { SessionEvent, SessionMetaPatch } from '../../core/session.js';
import { patchTarget } from '../internal/apply-patch.js';
import { toolCallEvent, toolResultEvent, turnEvent } from '../internal/event-literals.js';
import { ampResumeCommand } from './descriptor.js';
import { fileUriToPath } from './file-uri.js';
import {
  ampMessageSchema,
  ampThreadSchema,
  textBlockSchema,
  toolResultBlockSchema,
  toolUseBlockSchema,
  type AmpMessage,
  type AmpThread,
  type TextBlock,
  type ToolResultBlock,
  type ToolUseBlock,
} from './schema.js';

/** A message role or content block type this parser does not know (a newer Amp): counted once per thread. */
interface AmpUnknown {
  readonly key: string;
  readonly what: string;
}

/** What one read of a thread document yields: the full replay, or why it could not be used. */
export type AmpThreadParse =
  | {
      readonly kind: 'thread';
      readonly sessionId: string;
      readonly events: readonly SessionEvent[];
      readonly badMessages: number;
      /** `env.initial.platform.clientVersion`: the Amp build that created the thread. */
      readonly version?: string;
      readonly unknown: readonly AmpUnknown[];
    }
  /** A thread with no user or assistant message yet (Amp creates the file before the first prompt). */
  | { readonly kind: 'empty'; readonly sessionId: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** Amp tools that write a file, and the input field naming it. */
const WRITE_TOOLS = new Set(['edit_file', 'write_file', 'create_file', 'Edit', 'Write']);
/** Message roles of a thread (`info` carries compaction and handoff summaries). */
const KNOWN_ROLES = new Set(['user', 'assistant', 'info']);
/** Content block types seen in threads and exports (0.0.177x-0.0.178x); others are unknown_record. */
const KNOWN_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'image', 'summary', 'document']);

/** Tool-run states that mean "still running": the call stays pending until a final status. */
const RUNNING_STATUSES: ReadonlySet<string> = new Set(['in-progress', 'running', 'queued', 'pending', 'blocked-on-user']);

/** The blocks of one message agentwatch reads, each validated by its own schema; others are skipped. */
interface Blocks {
  readonly texts: readonly TextBlock[];
  readonly toolUses: readonly ToolUseBlock[];
  readonly toolResults: readonly ToolResultBlock[];
}

const blocksOf = (message: AmpMessage): Blocks => {
  const texts: TextBlock[] = [];
  const toolUses: ToolUseBlock[] = [];
  const toolResults: ToolResultBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      const parsed = textBlockSchema.safeParse(block);
      if (parsed.success) texts.push(parsed.data);
    } else if (block.type === 'tool_use') {
      const parsed = toolUseBlockSchema.safeParse(block);
      if (parsed.success) toolUses.push(parsed.data);
    } else if (block.type === 'tool_result') {
      const parsed = toolResultBlockSchema.safeParse(block);
      if (parsed.success) toolResults.push(parsed.data);
    }
  }
  return { texts, toolUses, toolResults };
};

/** A message's own time: usage timestamp, else when it was sent, else its latest tool timing. */
const messageTime = (message: AmpMessage, blocks: Blocks): number => {
  const fromUsage = message.usage?.timestamp ? Date.parse(message.usage.timestamp) : NaN;
  if (Number.isFinite(fromUsage) && fromUsage > 0) return fromUsage;
  if (message.meta?.sentAt && message.meta.sentAt > 0) return message.meta.sentAt;
  let latest = 0;
  for (const block of blocks.toolUses) latest = Math.max(latest, block.finalTime ?? 0, block.startTime ?? 0);
  return latest;
};

const textOf = (blocks: Blocks): string =>
  blocks.texts
    .map((block) => block.text)
    .join('\n')
    .trim();

const writtenPath = (block: ToolUseBlock, cwd: string | undefined): string | undefined => {
  // Newer Amp (0.0.178x) has no edit tools: every write is an `apply_patch` of a patch envelope.
  if (block.name === 'apply_patch') {
    const target = typeof block.input?.patchText === 'string' ? patchTarget(block.input.patchText) : undefined;
    if (!target) return undefined;
    const file = fileUriToPath(target);
    return cwd && !path.isAbsolute(file) ? path.join(cwd, file) : file;
  }
  if (!WRITE_TOOLS.has(block.name)) return undefined;
  const raw = block.input?.path ?? block.input?.file_path;
  return typeof raw === 'string' && raw ? fileUriToPath(raw) : undefined;
};

/** The thread's working directory: the first tree's `file://` URI (an object `{fsPath|path}` in some editor builds). */
const treeDir = (thread: AmpThread): string | undefined => {
  const uri = thread.env?.initial?.trees?.[0]?.uri;
  if (typeof uri === 'string') return uri ? fileUriToPath(uri) : undefined;
  const dir = uri?.fsPath ?? uri?.path;
  return dir || undefined;
};

const metaOf = (thread: AmpThread, filePath: string, lastModel: string | undefined): SessionMetaPatch => {
  const tree = thread.env?.initial?.trees?.[0];
  const ref = tree?.repository?.ref;
  const model = lastModel ?? thread['~debug']?.lastInferenceUsage?.model;
  const cwd = treeDir(thread);
  return {
    source: 'cli',
    path: filePath,
    resumeCommand: ampResumeCommand(thread.id),
    ...(cwd ? { cwd } : {}),
    ...(ref?.startsWith('refs/heads/') ? { gitBranch: ref.slice('refs/heads/'.length) } : {}),
    ...(thread.env?.initial?.platform?.clientVersion ? { version: thread.env.initial.platform.clientVersion } : {}),
    ...(thread.title ? { agentName: thread.title } : {}),
    ...(model ? { model } : {}),
    ...(thread.created ? { createdAt: thread.created } : {}),
  };
};

/**
 * Pure: one thread document in, the complete replay of the session out (`reset`, `meta`, then
 * the turns, tool calls, tool results and usage in message order). The caller adds the
 * `checkpoint`. Amp rewrites the whole document, so there is no incremental form.
 */
export const parseAmpThread = (text: string, filePath: string): AmpThreadParse => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', message: `not a JSON document (${(error as Error).message})` };
  }
  const parsed = ampThreadSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'invalid', message: `not an Amp thread: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}` };
  const thread = parsed.data;
  const sessionId = thread.id;
  const ref = { agent: 'amp', sessionId } as const;

  const messages: AmpMessage[] = [];
  let badMessages = 0;
  for (const rawMessage of thread.messages) {
    const message = ampMessageSchema.safeParse(rawMessage);
    if (message.success) messages.push(message.data);
    else badMessages += 1;
  }
  if (!messages.some((m) => m.role === 'user' || m.role === 'assistant')) return { kind: 'empty', sessionId };

  const body: SessionEvent[] = [];
  const unknown = new Map<string, AmpUnknown>();
  const cwd = treeDir(thread);
  let clock = thread.created ?? 0;
  let lastModel: string | undefined;
  for (const [index, message] of messages.entries()) {
    if (!KNOWN_ROLES.has(message.role)) unknown.set(`role:${message.role}`, { key: `role:${message.role}`, what: `message role "${message.role}"` });
    for (const block of message.content) {
      if (!KNOWN_BLOCKS.has(block.type)) unknown.set(`block:${block.type}`, { key: `block:${block.type}`, what: `content block "${block.type}"` });
    }
    // Messages without a time of their own happened no earlier than the one before.
    const blocks = blocksOf(message);
    clock = Math.max(clock, messageTime(message, blocks));
    const at = clock;
    if (message.role === 'user') {
      const results = blocks.toolResults;
      if (results.length > 0) {
        for (const block of results) {
          const status = block.run?.status;
          // A result block whose run is still going (it carries `progress`) is not a result yet.
          if (status !== undefined && RUNNING_STATUSES.has(status)) continue;
          body.push(toolResultEvent(ref, at, block.toolUseID, status !== undefined && status !== '' && status !== 'done'));
        }
      } else {
        body.push(turnEvent(ref, at, 'user', textOf(blocks)));
      }
    } else if (message.role === 'assistant') {
      if (message.usage?.model) lastModel = message.usage.model;
      const calls: SessionEvent[] = blocks.toolUses.map((block) => toolCallEvent(ref, Math.max(at, block.startTime ?? 0), block.name, block.id, writtenPath(block, cwd)));
      const turn = turnEvent(ref, at, 'assistant', textOf(blocks));
      // NOTE: the last event decides the session's status. A message that stopped for tool use
      // ends on its calls; one that ended its turn (or was cancelled) ends on the answer. A reply
      // Amp is still streaming (state "running") is not an answer yet: the session keeps thinking
      // until the rewrite that completes it.
      if (message.state?.stopReason === 'tool_use') body.push(turn, ...calls);
      else if (message.state?.type === 'running') body.push(...calls);
      else body.push(...calls, turn);
      if (message.usage) {
        const u = message.usage;
        body.push({
          agent: ref.agent,
          sessionId: ref.sessionId,
          type: 'usage',
          at,
          messageId: String(message.messageId ?? `#${index}`),
          tokens: { input: u.inputTokens, output: u.outputTokens, cacheCreation: u.cacheCreationInputTokens, cacheRead: u.cacheReadInputTokens },
        });
      }
    }
    // `info` messages (compaction and handoff summaries) carry no turn.
  }

  const head: SessionEvent[] = [
    { agent: ref.agent, sessionId, type: 'reset' },
    { agent: ref.agent, sessionId, type: 'meta', patch: metaOf(thread, filePath, lastModel) },
  ];
  const events = head.concat(body);
  const version = thread.env?.initial?.platform?.clientVersion;
  return { kind: 'thread', sessionId, events, badMessages, unknown: [...unknown.values()], ...(version ? { version } : {}) };
};
