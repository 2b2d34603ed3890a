// The Cursor databases and composer versions this mapping was checked against:
// docs/formats/cursor.md. Cursor records no app version per chat.
import type { SessionEvent, SessionMetaPatch } from '../../core/session.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { recordDiagnostic, toolCallEvent, toolResultEvent, turnEvent, usageEvent, type Ref } from '../sqlite/events.js';
import type { JsonResult } from '../sqlite/values.js';
import { cursorResumeCommand } from './descriptor.js';
import { commonDirectory, fileUriToPath } from './file-uri.js';
import type { ComposerHeader } from './headers.js';
import { bubbleSchema, type Bubble, type Composer } from './schema.js';
import { writtenFile } from './tools.js';

export interface CursorSpec {
  readonly dbPath: string;
}

/** One bubble in conversation order: its id, its decoded JSON and the raw text (for file URIs). */
export interface BubbleRecord {
  readonly bubbleId: string;
  readonly json: JsonResult;
  readonly raw: string;
}

const TOOL_FAILED = new Set(['error', 'cancelled', 'canceled', 'aborted', 'rejected']);
const TOOL_DONE = new Set(['completed', 'success', ...TOOL_FAILED]);
/** Composer statuses meaning the agent stopped and the next move is the user's. */
const STOPPED = new Set(['completed', 'aborted', 'cancelled', 'canceled']);
/** The newest composer document version this mapping was checked against (`_v` 9, Cursor 1.x, 2025). */
const CURSOR_COMPOSER_VERSION = 10;
/** Bubble types: 1 the user's, 2 the assistant's (text or a tool). */
const KNOWN_BUBBLE_TYPES = new Set([1, 2]);

/** The version label of a composer (`composer v9`): what tells Cursor builds apart in its database. */
const composerVersion = (composer: Composer): string | undefined => (typeof composer._v === 'number' ? `composer v${composer._v}` : undefined);

const millisOf = (value: string | number | null | undefined): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
};

/** A bubble's own time: when its answer ended, else when it started, else its createdAt (older versions). */
export const bubbleTime = (bubble: Bubble): number | undefined =>
  millisOf(bubble.timingInfo?.clientEndTime) ?? millisOf(bubble.timingInfo?.clientStartTime) ?? millisOf(bubble.createdAt);

const firstWorkspace = (bubbles: readonly Bubble[]): string | undefined => {
  for (const bubble of bubbles) {
    const uri = bubble.workspaceUris?.[0];
    if (typeof uri === 'string' && uri !== '') return fileUriToPath(uri);
  }
  return undefined;
};

/**
 * Pure: one Cursor composer and its bubbles (in header order), with what Cursor's composer index
 * says of it (headers.ts), -> the full event replay.
 * type 1 is a prompt; type 2 with `toolFormerData` a tool call (and result once its status says
 * so); type 2 with text an answer. A composer Cursor marked completed whose last bubble is a tool
 * is handed back to the user (waiting), since no answer bubble follows.
 */
export const mapCursorComposer = (
  spec: CursorSpec,
  composerId: string,
  composer: Composer,
  records: readonly BubbleRecord[],
  header?: ComposerHeader,
): SessionEvent[] => {
  const ref: Ref = { agent: 'cursor', sessionId: composerId };
  const diagnostics: SessionEvent[] = [];
  const version = composerVersion(composer);
  const unknown = createUnknownRecords('cursor', 'Cursor');
  const where = { sessionId: composerId, path: spec.dbPath, ...(version ? { version } : {}) };
  if (typeof composer._v === 'number' && composer._v > CURSOR_COMPOSER_VERSION) {
    diagnostics.push(...unknown.once('composer', `composer document version ${composer._v} (newest known ${CURSOR_COMPOSER_VERSION})`, where));
  }
  const bubbles: Bubble[] = [];
  for (const record of records) {
    const parsed = record.json.ok ? bubbleSchema.safeParse(record.json.value) : undefined;
    if (!record.json.ok || !parsed?.success) {
      const why = record.json.ok ? (parsed?.error?.issues[0]?.message ?? 'invalid') : record.json.error;
      diagnostics.push(recordDiagnostic(ref, spec.dbPath, `bubble ${record.bubbleId}: ${why}`));
      continue;
    }
    if (!KNOWN_BUBBLE_TYPES.has(parsed.data.type)) {
      diagnostics.push(...unknown.once(`bubble:${parsed.data.type}`, `bubble type ${parsed.data.type}`, where));
      continue;
    }
    bubbles.push(parsed.data);
  }
  // The folder Cursor's index names beats one guessed from the files the bubbles mention.
  const cwd = firstWorkspace(bubbles) ?? header?.cwd ?? commonDirectory(records.map((r) => r.raw).join('\n'));

  const timeline: SessionEvent[] = [];
  // Bubbles without a time of their own take the previous one (the first ones, the composer's
  // creation), and those after the last timed bubble (a prompt just sent) happened at the
  // composer's last update. The creation is never the last activity (docs/activity.md): a composer
  // with no other time has no known activity.
  const lastTimed = bubbles.findLastIndex((bubble) => bubbleTime(bubble) !== undefined);
  let at = lastTimed === -1 && (composer.lastUpdatedAt ?? undefined) === undefined ? 0 : (composer.createdAt ?? 0);
  for (const [index, bubble] of bubbles.entries()) {
    const own = bubbleTime(bubble);
    at = own !== undefined ? Math.max(at, own) : index > lastTimed ? Math.max(at, composer.lastUpdatedAt ?? 0) : at;
    const bubbleId = bubble.bubbleId ?? records[index]?.bubbleId ?? String(index);
    const text = bubble.text?.trim() ? bubble.text : undefined;
    const tool = bubble.toolFormerData;
    if (bubble.type === 1) {
      timeline.push(turnEvent(ref, at, 'user', text));
    } else if (tool?.name) {
      // Words said before a call are an answer of their own; the call still decides the activity.
      if (text) timeline.push(turnEvent(ref, at, 'assistant', text));
      const callId = tool.toolCallId || bubbleId;
      const filePath = writtenFile(tool.name, tool.rawArgs, tool.params, cwd);
      timeline.push(toolCallEvent(ref, at, tool.name, callId, filePath));
      const status = tool.status ?? '';
      if (TOOL_DONE.has(status)) timeline.push(toolResultEvent(ref, at, callId, TOOL_FAILED.has(status)));
    } else if (text) {
      timeline.push(turnEvent(ref, at, 'assistant', text));
    }
    const input = bubble.tokenCount?.inputTokens ?? 0;
    const output = bubble.tokenCount?.outputTokens ?? 0;
    if (input > 0 || output > 0) {
      timeline.push(usageEvent(ref, at, bubbleId, { input, output, cacheCreation: 0, cacheRead: 0 }, undefined));
    }
  }
  const last = timeline.filter((event) => event.type !== 'usage').at(-1);
  if (STOPPED.has(composer.status ?? '') && (last?.type === 'tool_call' || last?.type === 'tool_result')) {
    timeline.push(turnEvent(ref, Math.max(at, composer.lastUpdatedAt ?? 0), 'assistant', undefined, false));
  }

  const patch: SessionMetaPatch = {
    cwd,
    agentName: composer.name ?? undefined,
    model: composer.modelConfig?.modelName ?? undefined,
    createdAt: composer.createdAt ?? undefined,
    // The last activity is the newest of the composer's last update and its bubbles' times.
    lastActivityAt: composer.lastUpdatedAt ?? undefined,
    version,
    path: spec.dbPath,
    resumeCommand: cursorResumeCommand(composerId),
    // A sub-agent runs in a composer of its own (Cursor 3.x): hidden, as other agents' sub-agents are.
    isSidechain: header?.subagent === true,
  };
  return [{ agent: 'cursor', sessionId: composerId, type: 'meta', patch }, ...diagnostics, ...timeline];
};
