import type { SessionRef } from '../../core/session.js';
import { toolResultEvent } from '../internal/event-literals.js';
import { ELIDE_KEEP_BYTES, ELIDE_OVER_BYTES } from '../internal/line-helpers.js';
import { elideLongStrings, jsonKey, skimString } from '../internal/skim.js';
import { KIMI_IGNORED_TYPES, KIMI_RECORD_TYPES } from './schema.js';
import type { KimiLineResult, KimiParseState } from './parse.js';

/**
 * Kimi's fast path: the records that carry nothing but their time (`turn.prompt` with the whole
 * prompt, `step.begin`, reasoning parts) and tool results (whose output is most of a transcript's
 * bytes) are read without JSON.parse. Kimi writes compact records with `type` first and `time`
 * last; a line in any other layout returns undefined and takes the full parse. The skimmed lines
 * are not validated beyond that layout, so a torn line of one of these kinds is not reported.
 */

const RECORD_PREFIX = Buffer.from('{"type":"');
const LOOP_RECORD = Buffer.from('{"type":"context.append_loop_event",');
const AGENT_ID = Buffer.from('"agentId":"');
const EVENT_TYPE = Buffer.from('"event":{"type":"');
const THINK_PART = Buffer.from('content.part","part":{"type":"think"');
const TOOL_RESULT = Buffer.from('tool.result","toolCallId":"');
const TIME_KEY = Buffer.from(',"time":');
const TOOL_CALL_ID = jsonKey('toolCallId');

const KNOWN_TYPES: ReadonlySet<string> = new Set(KIMI_RECORD_TYPES);
/** Loop events known to carry nothing but their time; every other one takes the full parse (used or unknown). */
const LOOP_EVENTS_IGNORED: ReadonlySet<string> = new Set(['step.begin']);

const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const ZERO = 0x30;
const NINE = 0x39;
const QUOTE = 0x22;

/** Bytes before the trailing whitespace (`\r`, spaces) of a line. */
const trimmedEnd = (line: Buffer): number => {
  let end = line.length;
  while (end > 0 && (line[end - 1] === 0x20 || line[end - 1] === 0x0d || line[end - 1] === 0x09)) end--;
  return end;
};

/**
 * The record's `time` when it is the last key of the top-level object: the line ends with
 * `,"time":<digits>}` and that single brace closes the record itself (a nested object would end
 * in `}}`). Undefined otherwise.
 */
const trailingTime = (line: Buffer, end: number): number | undefined => {
  if (end < 2 || line[end - 1] !== CLOSE_BRACE) return undefined;
  let start = end - 1;
  while (start > 0 && (line[start - 1] ?? 0) >= ZERO && (line[start - 1] ?? 0) <= NINE) start--;
  const digits = end - 1 - start;
  // JSON numbers have no leading zeros; anything unusual takes the full parse.
  if (digits === 0 || digits > 15 || (digits > 1 && line[start] === ZERO)) return undefined;
  if (start < TIME_KEY.length || !line.subarray(start - TIME_KEY.length, start).equals(TIME_KEY)) return undefined;
  return Number(line.toString('latin1', start, end - 1));
};

/** True when `bytes` are at `at` in `line`. */
const startsAt = (line: Buffer, bytes: Buffer, at = 0): boolean => line.length >= at + bytes.length && line.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0;

/** The string from `at` to the next quote, when it is a plain short identifier. */
const identifierAt = (line: Buffer, at: number, max = 64): { readonly value: string; readonly end: number } | undefined => {
  const close = line.indexOf(QUOTE, at);
  if (close === -1 || close - at > max || line.subarray(at, close).includes(BACKSLASH)) return undefined;
  return { value: line.toString('latin1', at, close), end: close };
};

/**
 * Where a loop event's own type starts: after `{"type":"context.append_loop_event",`, the
 * `"agentId":"…",` agent-core v2 writes there (older wires do not), and `"event":{"type":"`.
 */
const loopTypeAt = (line: Buffer): number | undefined => {
  if (!startsAt(line, LOOP_RECORD)) return undefined;
  let at = LOOP_RECORD.length;
  if (startsAt(line, AGENT_ID, at)) {
    const id = identifierAt(line, at + AGENT_ID.length, 128);
    if (id === undefined || line[id.end + 1] !== COMMA) return undefined;
    at = id.end + 2;
  }
  return startsAt(line, EVENT_TYPE, at) ? at + EVENT_TYPE.length : undefined;
};

/** A skimmed line's result, or undefined when the line needs `parseKimiLine`. */
export const skimKimiLine = (state: KimiParseState, line: Buffer, ref: SessionRef): KimiLineResult | undefined => {
  const end = trimmedEnd(line);
  const time = trailingTime(line, end);
  if (time === undefined) return undefined;
  const next: KimiParseState = { ...state, clock: Math.max(state.clock, time) };
  const type = startsAt(line, RECORD_PREFIX) ? identifierAt(line, RECORD_PREFIX.length)?.value : undefined;
  if (type === undefined) return undefined;
  // Known types that carry nothing only move the clock; unknown ones are counted by the full parse.
  if (!KNOWN_TYPES.has(type)) return KIMI_IGNORED_TYPES.has(type) ? { ok: true, state: next, events: [] } : undefined;
  if (type !== 'context.append_loop_event') return undefined;
  const loopAt = loopTypeAt(line);
  if (loopAt === undefined) return undefined;
  if (startsAt(line, THINK_PART, loopAt)) return { ok: true, state: next, events: [] };
  if (startsAt(line, TOOL_RESULT, loopAt)) {
    const callId = skimString(line, TOOL_CALL_ID, { from: loopAt });
    return callId ? { ok: true, state: next, events: [toolResultEvent(ref, next.clock, callId.value)] } : undefined;
  }
  const loopType = identifierAt(line, loopAt)?.value;
  return loopType !== undefined && LOOP_EVENTS_IGNORED.has(loopType) ? { ok: true, state: next, events: [] } : undefined;
};

const TOOL_CALL = Buffer.from('tool.call",');
const ARGS_KEY = Buffer.from('"args":');
const OPEN_BRACE = 0x7b;

/**
 * The bytes `parseKimiLine` should read: a native tool call whose only `args` is an object (a
 * Write's file contents) has its long strings cut first (`elideLongStrings`), which leaves its
 * structure, the tool name, the call id and a file path up to `keep` bytes as they were. Every
 * other line is read whole: a legacy `arguments` string would not survive the cut.
 */
export const kimiParseBytes = (line: Buffer, keep = ELIDE_KEEP_BYTES): Buffer => {
  if (line.length <= ELIDE_OVER_BYTES) return line;
  const loopAt = loopTypeAt(line);
  if (loopAt === undefined || !startsAt(line, TOOL_CALL, loopAt)) return line;
  const args = line.indexOf(ARGS_KEY, loopAt + TOOL_CALL.length);
  if (args === -1 || line[args + ARGS_KEY.length] !== OPEN_BRACE || line.indexOf(ARGS_KEY, args + 1) !== -1) return line;
  return elideLongStrings(line, keep);
};
