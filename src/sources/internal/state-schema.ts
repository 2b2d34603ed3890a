import { z } from 'zod';
import { AGENT_KINDS } from '../../core/agents.js';
import { DIAGNOSTIC_CODES } from '../../core/diagnostics.js';
import type { FileCheckpoint, SessionEvent, SessionState } from '../../core/session.js';

/**
 * zod schemas of the core event contract. The discovery cache validates persisted states with them
 * (a row written by another version or damaged on disk is dropped, never trusted), and the source
 * contract test checks every emitted event against them.
 */

const agent = z.enum(AGENT_KINDS);
const count = z.number().finite().nonnegative();
const time = z.number().finite();

const tokenCountsSchema = z.object({ input: count, output: count, cacheCreation: count, cacheRead: count, cacheCreation1h: count.optional() });

const diagnosticCode = z.enum(DIAGNOSTIC_CODES);

const fileStampSchema = z.object({ path: z.string().min(1), size: count, mtimeMs: time, ino: count.optional() });

const fileCheckpointSchema = z.object({
  path: z.string().min(1),
  offset: count,
  size: count,
  mtimeMs: time,
  ino: count.optional(),
  before: z.array(fileStampSchema).readonly().optional(),
  diagnostics: z.partialRecord(diagnosticCode, z.number().int().positive()).readonly().optional(),
});

const toolUse = z.object({ name: z.string(), at: time, callId: z.string().optional(), done: z.boolean() });
const recentMessage = z.object({ role: z.enum(['user', 'assistant']), text: z.string(), at: time });

/** The descriptive fields of a session: all of them in a state, any of them in a `meta` patch. */
const metaFields = {
  cwd: z.string(),
  model: z.string(),
  gitBranch: z.string(),
  version: z.string(),
  agentName: z.string(),
  source: z.enum(['cli', 'desktop']),
  isSidechain: z.boolean(),
  parentId: z.string(),
  resumeCommand: z.string(),
  path: z.string(),
  createdAt: time,
};

/** The fields only the detail view (and the fold, once the session changes) reads: the discovery cache restores them lazily. */
export const sessionDetailSchema = z.object({
  usageByMessage: z.record(z.string(), tokenCountsSchema),
  recentTools: z.array(toolUse),
  recentMessages: z.array(recentMessage),
});

/** Everything else: what listing a session and deriving its activity need. */
const sessionCoreSchema = z.object({
  agent,
  sessionId: z.string().min(1),
  ...metaFields,
  lastActivityAt: time,
  lastTurn: z.enum(['none', 'user', 'assistant', 'tool_call', 'tool_result', 'thinking']),
  lastTurnAt: time,
  userMessages: count,
  assistantMessages: count,
  tokens: tokenCountsSchema,
  tokensAboveTier: tokenCountsSchema,
  tokensByModel: z.record(z.string(), z.object({ tokens: tokenCountsSchema, aboveTier: tokenCountsSchema })),
  recordedCostUsd: count,
  subagents: z.object({ sessions: count, tokens: tokenCountsSchema, costUsd: count }),
  inlineSubagents: z.object({ sessions: count, tokens: tokenCountsSchema, costUsd: count }),
  pendingTools: z.array(toolUse),
  lastFileWrite: z.string(),
  lastFileWriteAt: time,
  compactionStartedAt: time,
  compactionEndedAt: time,
  checkpoint: fileCheckpointSchema.nullable(),
});

export const sessionStateSchema = z.object({ ...sessionCoreSchema.shape, ...sessionDetailSchema.shape });

const ref = { agent, sessionId: z.string().min(1) };

const metaPatch = z.object({ ...metaFields, lastActivityAt: time }).partial().strict();

export const sessionEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('meta'), ...ref, at: time.optional(), patch: metaPatch }).strict(),
  z
    .object({
      type: z.literal('turn'),
      ...ref,
      at: time,
      role: z.enum(['user', 'assistant']),
      text: z.string().optional(),
      counts: z.boolean().optional(),
    })
    .strict(),
  z
    .object({ type: z.literal('tool_call'), ...ref, at: time, name: z.string().min(1), callId: z.string().optional(), filePath: z.string().optional() })
    .strict(),
  z.object({ type: z.literal('tool_result'), ...ref, at: time, callId: z.string().optional(), isError: z.boolean().optional() }).strict(),
  z
    .object({
      type: z.literal('usage'),
      ...ref,
      at: time.optional(),
      tokens: tokenCountsSchema,
      messageId: z.string().optional(),
      mode: z.enum(['add', 'total']).optional(),
      model: z.string().optional(),
      costUsd: count.optional(),
      subagent: z.boolean().optional(),
    })
    .strict(),
  z.object({ type: z.literal('subagent_run'), ...ref, at: time }).strict(),
  z.object({ type: z.literal('thinking'), ...ref, at: time }).strict(),
  z.object({ type: z.literal('compaction'), ...ref, at: time, phase: z.enum(['start', 'end']) }).strict(),
  z.object({ type: z.literal('reset'), ...ref }).strict(),
  z.object({ type: z.literal('removed'), ...ref }).strict(),
  z.object({ type: z.literal('restore'), ...ref, state: sessionStateSchema }).strict(),
  z.object({ type: z.literal('checkpoint'), ...ref, checkpoint: fileCheckpointSchema }).strict(),
  z.object({ type: z.literal('ready'), agent }).strict(),
  z.object({ type: z.literal('progress'), agent, read: count, total: count }).strict(),
  z
    .object({
      type: z.literal('diagnostic'),
      agent,
      sessionId: z.string().optional(),
      code: diagnosticCode,
      message: z.string().min(1),
      path: z.string().optional(),
      line: z.number().int().positive().optional(),
      version: z.string().optional(),
      count: z.number().int().positive().optional(),
    })
    .strict(),
]);

// Compile-time proof that the schemas describe exactly the core types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(): T | undefined => undefined;
assertSame<Same<z.infer<typeof fileCheckpointSchema>, FileCheckpoint>>();
const _stateSchemaMatches = (state: z.infer<typeof sessionStateSchema>): SessionState => state;
const _eventSchemaMatches = (event: z.infer<typeof sessionEventSchema>): SessionEvent => event;
