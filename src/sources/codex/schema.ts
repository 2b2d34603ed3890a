import { z } from 'zod';
import { countSchema } from '../internal/counts.js';

/** Codex rollout records (docs/formats/codex.md): an envelope whose payload shape depends on `type`. */

const optionalString = z.string().optional();
const count = countSchema.optional();

export const codexEnvelopeSchema = z.object({
  timestamp: optionalString,
  type: z.string(),
  payload: z.record(z.string(), z.unknown()).optional(),
});

export const codexSessionMetaSchema = z.object({
  id: z.string().min(1),
  timestamp: optionalString,
  cwd: optionalString,
  cli_version: optionalString,
  /** Which client wrote the rollout: `codex_cli_rs`, `codex_vscode`, `Codex Desktop`... */
  originator: optionalString,
  agent_nickname: z.string().nullish(),
  /** 0.14x+: `user`, or who else started the thread (`subagent`, `guardian_review`...). */
  thread_source: z.string().nullish().catch(undefined),
  source: z.unknown().optional(),
  /** 0.14x `/review` threads: the parent beside `source: {subagent: "review"}`, not inside it. */
  parent_thread_id: z.string().nullish().catch(undefined),
  git: z.object({ branch: optionalString }).nullish(),
  /** The thread this one was forked from (`codex fork`); null or absent otherwise. */
  forked_from_id: z.string().nullish().catch(undefined),
});

export const codexTurnContextSchema = z.object({
  /** The turn's id (a UUIDv7 in current builds: it tells when the turn began). */
  turn_id: optionalString,
  cwd: optionalString,
  model: optionalString,
  git: z.object({ branch: optionalString }).nullish(),
});

const codexContentSchema = z.array(z.object({ type: z.string(), text: z.string().optional() }).loose());

export const codexResponseItemSchema = z.object({
  type: z.string(),
  role: optionalString,
  content: codexContentSchema.optional(),
  name: optionalString,
  call_id: optionalString,
  arguments: z.unknown().optional(),
  input: z.unknown().optional(),
  status: optionalString,
});

/**
 * A message from another agent of the same run (multi-agent, 0.15x+): the older top-level
 * `inter_agent_communication` record. Newer builds write `inter_agent_communication_metadata`
 * (its `trigger_turn`) followed by a `response_item` of type `agent_message`.
 */
export const codexInterAgentSchema = z.object({
  author: optionalString,
  content: z.unknown().optional(),
  trigger_turn: z.boolean().optional(),
});

const codexTokenUsageSchema = z.object({
  input_tokens: count,
  cached_input_tokens: count,
  /** 0.145+: input written to the prompt cache, part of input_tokens as cached input is. */
  cache_write_input_tokens: count,
  output_tokens: count,
  reasoning_output_tokens: count,
});

export const codexEventMsgSchema = z.object({
  type: z.string(),
  /** `user_message`: the prompt as typed (Codex Desktop 0.128 records prompts only this way). */
  message: z.string().optional(),
  info: z.object({ total_token_usage: codexTokenUsageSchema.optional(), last_token_usage: codexTokenUsageSchema.optional() }).nullish(),
});

/** `session_index.jsonl`: one line per rename; the newest line for an id wins. */
export const codexThreadNameSchema = z.object({
  id: z.string().min(1),
  thread_name: z.string(),
  updated_at: optionalString,
});
