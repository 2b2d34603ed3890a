import type { z } from 'zod';
// The Codex CLI and Codex Desktop releases this parser was checked against: docs/formats/codex.md.
import path from 'node:path';
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import { patchTarget } from '../internal/apply-patch.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { FAST_PATH_MIN_BYTES, jsonKey, skimString, skimTimestamp, skimType, valueKey } from '../internal/skim.js';
import { asCopied } from '../internal/copies.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { forkBase, isForkRollout, isOwnTurn, minusUsage, rawUsageOf, rawUsageOfTokens, tokensOf, ZERO_USAGE, type RawUsage } from './fork.js';
import { codexResumeCommand } from './descriptor.js';
import { isCodexSegment } from './paths.js';
import { QUESTION_TOOL, questionText } from './questions.js';
import {
  codexEnvelopeSchema,
  codexEventMsgSchema,
  codexInterAgentSchema,
  codexResponseItemSchema,
  codexSessionMetaSchema,
  codexTurnContextSchema,
} from './schema.js';

type CodexEnvelope = z.infer<typeof codexEnvelopeSchema>;

const agent = 'codex';

/** `event_msg` kinds that matter; the rest (deltas, reasoning, duplicated messages, command output) is skipped unparsed. */
const USED_EVENT_MSGS = new Set(['token_count', 'context_compacted', 'user_message']);
/** `response_item` kinds skipped unparsed (reasoning carries large encrypted blobs). */
const SKIPPED_ITEMS = new Set(['reasoning']);
/**
 * Context Codex injects as "user" messages: turns for state, not messages a person wrote
 * (0.13x-0.15x add skills, plugin lists, internal recovery notes and Stop-hook block reasons).
 */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<permissions instructions>',
  '<INSTRUCTIONS>',
  '<turn_aborted>',
  '<skill>',
  '<recommended_plugins>',
  '<codex_internal_context',
  '<hook_prompt',
];

const CALL_ID = jsonKey('call_id');
const ASSISTANT_ROLE = Buffer.from('"role":"assistant"');
/** Tool outputs are most of a rollout's bytes; their call id and timestamp are all that matters. */
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output']);

export { patchTarget };

/** Message text kept whole when a long line is parsed: `text` of message content, `message` of a user_message event. */
const TEXT_KEYS = [valueKey('text'), valueKey('message')];

/** apply_patch paths are relative to the turn's cwd: made absolute so every agent's last_file_write can be opened. */
const inCwd = (file: string | undefined, cwd: string | undefined): string | undefined =>
  file && cwd && !path.isAbsolute(file) ? path.join(cwd, file) : file;

/**
 * Top-level record types Codex writes that carry nothing agentwatch shows (`session_state`: model
 * switches mid-session; the rest arrive with 0.147+ paginated threads; `rollout_reference`: a
 * segment or fork pointing at the rollout its history continues, which is read as its own file).
 * Others are unknown_record.
 */
const IGNORED_TOP_LEVEL = new Set([
  'session_state',
  'token_usage_record',
  'agent_response_observation',
  'world_state',
  'security_risk_score',
  'retained_context',
  'realtime_item',
  'rollout_reference',
]);

/** How soon after a prompt's first record its mirror is written (the CLI writes both at once; a person never retypes a prompt this fast). */
const MIRROR_WITHIN_MS = 2_000;

/** The prompt a restored state ended on, when its last record was one: the first of a prompt's two records. */
const restoredPrompt = (state: SessionState): { readonly text: string; readonly from: 'restored'; readonly at: number } | undefined => {
  // NOTE: the last turn first: the recent messages of a restored state are its detail, read from the cache when asked for.
  if (state.lastTurn !== 'user' || state.lastTurnAt <= 0) return undefined;
  const last = state.recentMessages.at(-1);
  return last?.role === 'user' && last.at === state.lastTurnAt ? { text: last.text, from: 'restored', at: last.at } : undefined;
};

/** `thread_source` values of threads nobody started by hand (spawned agents, internal reviews). */
const BACKGROUND_THREAD_SOURCES = new Set(['subagent', 'guardian_review', 'memory_consolidation']);

const isSubagentSource = (source: unknown): boolean => typeof source === 'object' && source !== null && JSON.stringify(source).includes('subagent');

const parentThreadOf = (source: unknown): string | undefined => /"parent_thread_id":"([^"]+)"/.exec(JSON.stringify(source ?? null))?.[1];

/**
 * The line parser of one Codex rollout (docs/formats/codex.md): the `session_meta` id is the
 * session id; `turn_context` updates cwd/model/branch; messages, function and custom tool calls
 * and their outputs (matched by call id); cumulative `token_count` totals with cached input split
 * out of input (less the parent's total in a fork, fork.ts); `compacted` / `context_compacted`
 * as compaction.
 */
export const createCodexParser = (file: string, provisionalId: string, resumed: boolean, restored?: SessionState): FileParser => {
  let sessionId = provisionalId;
  // A fork's totals include its parent's: known from the first session_meta, or, resumed after a
  // warm start, from the file's first line. The base is found at the first total read.
  let forked = resumed && !isCodexSegment(file) && isForkRollout(file);
  let forkedBase: RawUsage | undefined;
  // A fork's copy of its parent's rollout, after its own session_meta (fork.ts): `copying` from the
  // parent's session_meta until the fork's first turn of its own. `forkedAt`: the fork's session_meta time.
  let copying = false;
  let ownTurnSeen = resumed;
  let forkedAt = 0;
  const counted = resumed && restored ? rawUsageOfTokens(restored.tokens) : ZERO_USAGE;
  let sawMeta = resumed;
  // Resumed before any record said where the session is (damaged first lines): said at the next one.
  let started = resumed && (restored === undefined || restored.path !== '');
  // The turn's folder, model and branch; resumed, as the restored state holds them (apply_patch
  // paths are made absolute against the folder of the turn they belong to).
  const known: { cwd?: string; model?: string; gitBranch?: string } =
    resumed && restored ? { ...(restored.cwd ? { cwd: restored.cwd } : {}), ...(restored.model ? { model: restored.model } : {}), ...(restored.gitBranch ? { gitBranch: restored.gitBranch } : {}) } : {};
  const unknown = createUnknownRecords(agent, 'Codex');
  let version: string | undefined;
  // The CLI records a prompt twice (response_item message + event_msg user_message); Codex
  // Desktop 0.128 only as event_msg. A prompt counts once, from whichever record comes first.
  // Resumed between the two, the first is the restored state's last message (`restored`: its text
  // as the fold keeps it, cut short; the second record follows within milliseconds).
  let lastPrompt: { readonly text: string; readonly from: 'item' | 'event' | 'restored'; readonly at?: number } | undefined = resumed && restored ? restoredPrompt(restored) : undefined;
  const isRepeat = (text: string, from: 'item' | 'event', at: number): boolean => {
    const key = text.trim();
    const repeat =
      lastPrompt !== undefined && lastPrompt.from !== from && (lastPrompt.from === 'restored' ? Math.abs(at - (lastPrompt.at ?? 0)) <= MIRROR_WITHIN_MS && key.startsWith(lastPrompt.text) : lastPrompt.text === key);
    lastPrompt = repeat ? undefined : { text: key, from };
    return repeat;
  };

  // Whether the next `agent_message` starts a turn: its `inter_agent_communication_metadata` line
  // comes first and says (`trigger_turn`); a message that does not is only queued as context.
  let agentMessageTriggers = true;

  const ref = (): { agent: 'codex'; sessionId: string } => ({ agent, sessionId });
  /**
   * Another agent's message to this one (a task for a sub-agent, a finished child's result for
   * its parent): when it triggers a turn, the session works on it, as after a prompt, but it is
   * not a message a person wrote.
   */
  const agentMessage = (text: string, triggers: boolean, at: number): SessionEvent[] =>
    triggers ? [{ type: 'turn', ...ref(), at, role: 'user', text, counts: false }] : [];
  const startEvents = (extra: SessionMetaPatch = {}, at?: number): SessionEvent[] => {
    if (started) return Object.keys(extra).length > 0 ? [{ type: 'meta', ...ref(), at, patch: extra }] : [];
    started = true;
    return [{ type: 'meta', ...ref(), at, patch: { path: file, source: 'cli', resumeCommand: codexResumeCommand(sessionId), ...extra } }];
  };

  const contextPatch = (cwd?: string, model?: string, branch?: string | null): SessionMetaPatch => {
    const patch: { cwd?: string; model?: string; gitBranch?: string } = {};
    if (cwd && cwd !== known.cwd) patch.cwd = known.cwd = cwd;
    if (model && model !== known.model) patch.model = known.model = model;
    if (branch && branch !== known.gitBranch) patch.gitBranch = known.gitBranch = branch;
    return patch;
  };

  const sessionMeta = (payload: unknown, at: number): SessionEvent[] => {
    const meta = codexSessionMetaSchema.safeParse(payload);
    if (!meta.success) return [];
    const m = meta.data;
    // Forked rollouts repeat their parent's session_meta: the first one is this file's. Before a
    // turn of the fork's own, another thread's session_meta begins the copy of the parent's rollout.
    if (sawMeta) {
      if (forked && !ownTurnSeen && m.id !== sessionId) copying = true;
      return [];
    }
    sawMeta = true;
    version = m.cli_version;
    forked = typeof m.forked_from_id === 'string' && m.forked_from_id !== '' && m.forked_from_id !== m.id && !isCodexSegment(file);
    forkedAt = at || epochMs(m.timestamp);
    if (!started) sessionId = m.id;
    const sidechain = Boolean(m.agent_nickname) || isSubagentSource(m.source) || (m.thread_source !== undefined && m.thread_source !== null && BACKGROUND_THREAD_SOURCES.has(m.thread_source));
    const parentId = sidechain ? (parentThreadOf(m.source) ?? (m.parent_thread_id || undefined)) : undefined;
    return startEvents(
      {
        // Codex Desktop writes the same rollouts; its originator says so.
        ...(m.originator && /desktop/i.test(m.originator) ? { source: 'desktop' as const } : {}),
        ...contextPatch(m.cwd, undefined, m.git?.branch),
        ...(m.cli_version ? { version: m.cli_version } : {}),
        ...(epochMs(m.timestamp) || at ? { createdAt: epochMs(m.timestamp) || at } : {}),
        ...(sidechain ? { isSidechain: true } : {}),
        ...(parentId ? { parentId } : {}),
      },
      at,
    );
  };

  const responseItem = (payload: unknown, at: number): SessionEvent[] => {
    const parsed = codexResponseItemSchema.safeParse(payload);
    if (!parsed.success) return [];
    const item = parsed.data;
    switch (item.type) {
      case 'message': {
        if (item.role !== 'user' && item.role !== 'assistant') return [];
        const text = (item.content ?? []).map((c) => c.text ?? '').join('\n');
        const injected = item.role === 'user' && INJECTED_PREFIXES.some((p) => text.trimStart().startsWith(p));
        if (item.role === 'user' && !injected && isRepeat(text, 'item', at)) return [];
        return [{ type: 'turn', ...ref(), at, role: item.role, text: text, ...(injected ? { counts: false } : {}) }];
      }
      case 'function_call':
      case 'custom_tool_call': {
        if (!item.name) return [];
        const raw = typeof item.arguments === 'string' ? item.arguments : typeof item.input === 'string' ? item.input : '';
        const writes = item.name === 'apply_patch' || raw.includes('apply_patch');
        const call: SessionEvent = { type: 'tool_call', ...ref(), at, name: item.name, callId: item.call_id, filePath: writes ? inCwd(patchTarget(raw), known.cwd) : undefined };
        // A question to the person: the turn waits for them, as after an answer (questions.ts).
        return item.name === QUESTION_TOOL ? [call, { type: 'turn', ...ref(), at, role: 'assistant', text: questionText(raw) }] : [call];
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        return [{ type: 'tool_result', ...ref(), at, callId: item.call_id }];
      case 'agent_message': {
        const triggers = agentMessageTriggers;
        agentMessageTriggers = true;
        return agentMessage((item.content ?? []).map((c) => c.text ?? '').join('\n'), triggers, at);
      }
      case 'web_search_call': {
        // Recorded once, already finished: a call and its result at the same instant.
        const callId = `web_search@${at}`;
        return [
          { type: 'tool_call', ...ref(), at, name: 'web_search', callId },
          { type: 'tool_result', ...ref(), at, callId },
        ];
      }
      default:
        return [];
    }
  };

  const eventMsg = (payload: unknown, at: number): SessionEvent[] => {
    const parsed = codexEventMsgSchema.safeParse(payload);
    if (!parsed.success) return [];
    if (parsed.data.type === 'context_compacted') return [{ type: 'compaction', ...ref(), at, phase: 'start' }];
    if (parsed.data.type === 'user_message') {
      const text = parsed.data.message ?? '';
      return isRepeat(text, 'event', at) ? [] : [{ type: 'turn', ...ref(), at, role: 'user', text: text }];
    }
    const info = parsed.data.info;
    // A copied total is the parent's: the fork's base is found at its own first total.
    if (parsed.data.type !== 'token_count' || !info?.total_token_usage || copying) return [];
    // Cached input is part of input_tokens and reasoning part of output_tokens: count each once.
    let total = rawUsageOf(info.total_token_usage);
    if (forked) {
      forkedBase ??= forkBase(total, info.last_token_usage && rawUsageOf(info.last_token_usage), counted);
      total = minusUsage(total, forkedBase);
    }
    return [{ type: 'usage', ...ref(), at, tokens: tokensOf(total), mode: 'total' }];
  };

  // A fork's copy of its parent's turns: their history, not their spend or messages (counted in the parent).
  const line = (bytes: Buffer): SessionEvent[] => {
    const events = lineEvents(bytes);
    return copying ? asCopied(events) : events;
  };

  const lineEvents = (bytes: Buffer): SessionEvent[] => {
    const top = skimType(bytes);
    if (top?.value === 'compacted') {
      // The replacement history can be megabytes: the timestamp is all we need.
      return [...startEvents(), { type: 'compaction', ...ref(), at: epochMs(skimTimestamp(bytes)), phase: 'start' }];
    }
    if (top?.value === 'response_item' || top?.value === 'event_msg') {
      const inner = skimType(bytes, top.end)?.value;
      if (inner !== undefined && (top.value === 'event_msg' ? !USED_EVENT_MSGS.has(inner) : SKIPPED_ITEMS.has(inner))) return [];
      if (inner !== undefined && OUTPUT_ITEMS.has(inner) && bytes.length > FAST_PATH_MIN_BYTES) {
        const callId = skimString(bytes, CALL_ID);
        if (callId) return [...startEvents(), { type: 'tool_result', ...ref(), at: epochMs(skimTimestamp(bytes)), callId: callId.value }];
      }
    }
    const decoded = decodeLine(agent, codexEnvelopeSchema, bytes, { sessionId, path: file }, TEXT_KEYS);
    if (!decoded.ok) return decoded.event ? [decoded.event] : [];
    const { type, payload, timestamp } = decoded.value;
    const at = epochMs(timestamp);
    const undated = undatedRecord(agent, timestamp, at, { sessionId, path: file });
    return undated.length > 0 ? [...undated, ...recordEvents(type, payload, at)] : recordEvents(type, payload, at);
  };

  const recordEvents = (type: CodexEnvelope['type'], payload: CodexEnvelope['payload'], at: number): SessionEvent[] => {
    switch (type) {
      case 'session_meta':
        return sessionMeta(payload, at);
      case 'turn_context': {
        const ctx = codexTurnContextSchema.safeParse(payload);
        if (!ctx.success) return [];
        if (!copying) ownTurnSeen = true;
        else if (isOwnTurn(ctx.data.turn_id, at, forkedAt)) copying = false;
        // The parent's turns (copied) name its model and folder; the fork's own name the fork's.
        return copying ? startEvents() : startEvents(contextPatch(ctx.data.cwd, ctx.data.model, ctx.data.git?.branch), at);
      }
      case 'response_item':
        return [...startEvents(), ...responseItem(payload, at)];
      case 'event_msg':
        return [...startEvents(), ...eventMsg(payload, at)];
      case 'inter_agent_communication_metadata':
        agentMessageTriggers = payload?.trigger_turn !== false;
        return [];
      case 'inter_agent_communication': {
        const mail = codexInterAgentSchema.safeParse(payload);
        if (!mail.success) return [];
        const text = typeof mail.data.content === 'string' ? mail.data.content : '';
        return [...startEvents(), ...agentMessage(text, mail.data.trigger_turn !== false, at)];
      }
      default:
        // A record type of a newer (or older) Codex: counted once per file, with the version.
        if (IGNORED_TOP_LEVEL.has(type)) return [];
        return unknown.once(type, `record type "${type}"`, { sessionId, path: file, ...(version ? { version } : {}) });
    }
  };

  /** A record over the line cap: codex writes the timestamp and kinds first, so the head says it all. */
  const oversized = (head: Buffer): SessionEvent[] => {
    const top = skimType(head);
    if (top?.value !== 'response_item') return [];
    const inner = skimType(head, top.end)?.value;
    const at = epochMs(skimTimestamp(head));
    if (at <= 0 || inner === undefined) return [];
    if (OUTPUT_ITEMS.has(inner)) {
      const callId = skimString(head, CALL_ID);
      return [...startEvents(), { type: 'tool_result', ...ref(), at, ...(callId ? { callId: callId.value } : {}) }];
    }
    if (inner === 'message') return [...startEvents(), { type: 'turn', ...ref(), at, role: head.includes(ASSISTANT_ROLE) ? 'assistant' : 'user', text: '' }];
    return [];
  };

  return { sessionId: () => sessionId, start: () => [], line, oversized: (head) => (copying ? asCopied(oversized(head)) : oversized(head)) };
};
