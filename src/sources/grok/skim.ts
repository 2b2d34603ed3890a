import type { SessionEvent } from '../../core/session.js';
import { toolResultEvent } from '../internal/event-literals.js';

/**
 * Grok's fast path: `system` prompts and `reasoning` markers carry nothing, and a `tool_result`
 * carries only its call id, while its `content` (the tool's output) is most of a transcript's
 * bytes. Grok writes compact records with `type` first and `tool_call_id` last, so these are
 * read without JSON.parse; any other layout returns undefined and takes `parseGrokLine`. The
 * skimmed lines are not validated beyond that layout (a torn one of these kinds is not reported).
 */

const SILENT_PREFIXES = [Buffer.from('{"type":"system",'), Buffer.from('{"type":"reasoning",')];
const TOOL_RESULT_PREFIX = Buffer.from('{"type":"tool_result",');
const CALL_ID_KEY = Buffer.from(',"tool_call_id":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

const startsWith = (line: Buffer, prefix: Buffer): boolean => line.length >= prefix.length && line.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

/** Bytes before the trailing whitespace of a line. */
const trimmedEnd = (line: Buffer): number => {
  let end = line.length;
  while (end > 0 && (line[end - 1] === 0x20 || line[end - 1] === 0x0d || line[end - 1] === 0x09)) end--;
  return end;
};

/**
 * The value of `"tool_call_id":"…"` when it is the record's last member: the line ends with
 * `,"tool_call_id":"<id>"}`, the id has no quote or escape, and that single brace closes the
 * record (a nested object would end in `}}` or `"}]}`).
 */
const trailingCallId = (line: Buffer, end: number): string | undefined => {
  if (end < 2 || line[end - 1] !== CLOSE_BRACE || line[end - 2] !== QUOTE) return undefined;
  const key = line.lastIndexOf(CALL_ID_KEY, end - 2);
  if (key === -1) return undefined;
  const start = key + CALL_ID_KEY.length;
  const value = line.subarray(start, end - 2);
  if (value.length > 256 || value.includes(QUOTE) || value.includes(BACKSLASH)) return undefined;
  return value.toString('utf8');
};

/** The events of a skimmed line (all stamped 0, as `parseGrokLine` does), or undefined for the full parse. */
export const skimGrokLine = (line: Buffer, sessionId: string): readonly SessionEvent[] | undefined => {
  const end = trimmedEnd(line);
  if (end === 0 || line[end - 1] !== CLOSE_BRACE) return undefined;
  if (SILENT_PREFIXES.some((prefix) => startsWith(line, prefix))) return [];
  if (!startsWith(line, TOOL_RESULT_PREFIX)) return undefined;
  const callId = trailingCallId(line, end);
  return callId === undefined ? undefined : [toolResultEvent({ agent: 'grok', sessionId }, 0, callId)];
};
