import type { SessionEvent } from '../../core/session.js';
import { epochMs } from '../internal/line-helpers.js';
import type { KeyHit } from '../internal/key-hits.js';
import { OVERSIZED_KEYS } from '../internal/lines.js';
import { jsonKey, skimString, skimType } from '../internal/skim.js';

/**
 * What a Claude Code line says without being parsed: the bulk of a transcript is tool output,
 * and a line over the cap is never parsed at all.
 */

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

/** The record's own uuid: its last raw `uuid` key (nested tool output never has raw keys). */
export const skimRecordUuid = (line: Buffer): string | undefined => skimString(line, UUID, { last: true })?.value;

/**
 * The record's own timestamp among the raw `timestamp` keys of an oversized line: the last one
 * before its `toolUseResult` (a tool result writes its output twice, with the timestamp between
 * the copies, and the copy under `toolUseResult` may hold keys of its own), else the last one.
 */
const recordTimestamp = (keys: readonly KeyHit[], tail: Buffer): string | undefined => {
  const result = keys.find((hit) => hit.key === OVERSIZED_KEYS.toolUseResult)?.offset ?? Number.POSITIVE_INFINITY;
  const stamp = keys.filter((hit) => hit.key === OVERSIZED_KEYS.timestamp && hit.offset < result).at(-1);
  if (stamp === undefined) return skimString(tail, TIMESTAMP, { last: true })?.value;
  const close = stamp.after.indexOf(0x22);
  return close === -1 || close > 40 ? undefined : stamp.after.toString('latin1', 0, close);
};

/**
 * A record over the line cap (a pasted log, a huge Write, a huge tool result): its type and ids
 * sit in its first bytes, its timestamp wherever the scan of the whole line found it, so the
 * session still moves.
 */
export const oversizedEvents = (ref: { readonly agent: 'claude'; readonly sessionId: string }, head: Buffer, tail: Buffer, keys: readonly KeyHit[] = []): SessionEvent[] => {
  const type = skimType(head)?.value;
  const at = epochMs(recordTimestamp(keys, tail));
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
