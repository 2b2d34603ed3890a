import { jsonErrorOffset } from './json-error-offset.js';
import { readLenient } from './json-lenient.js';

/** A configuration problem the user must fix; the CLI prints `message` and exits 1. */
export class ConfigError extends Error {
  readonly code: 'E_CONFIG_JSON' | 'E_CONFIG_INVALID' | 'E_CONFIG_IO';
  /** What could be read of a file that is not valid JSON (the keys before and around the mistakes), for `doctor`. */
  readonly salvaged?: unknown;
  constructor(code: ConfigError['code'], message: string, salvaged?: unknown) {
    super(message);
    this.name = 'ConfigError';
    this.code = code;
    if (salvaged !== undefined) this.salvaged = salvaged;
  }
}

/** Line and column (1-based) of a character offset, for "file:line:col" messages. */
export const lineColumn = (text: string, offset: number): { line: number; column: number } => {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
};

/** What is probably meant by the character at `offset`, for the usual mistakes (`NaN`, a comment, single quotes), or "". */
const hintAt = (text: string, offset: number): string => {
  if (/^-?(NaN|Infinity)/.test(text.slice(offset, offset + 9))) return ' (NaN and Infinity are not JSON numbers)';
  const char = text[offset];
  if (char === '/' || char === '#') return ' (JSON has no comments)';
  return char === "'" ? ' (JSON strings take double quotes)' : '';
};

/** The character at `offset` as a message shows it: one code point, escaped when invisible. */
const unexpectedAt = (text: string, offset: number): string => `Unexpected character ${JSON.stringify(String.fromCodePoint(text.codePointAt(offset) ?? 0))}`;

/**
 * JSON.parse, with a failure turned into a one-line message naming the file and the line and
 * column of every mistake json-lenient.ts can place (the first as V8 words it, where V8 places it
 * too; V8 quotes a stretch of the file for some, which may hold a secret, so only the character is
 * shown). The error carries what could be read of the document, for `doctor`.
 */
export const parseJsonFile = (file: string, text: string): unknown => {
  // A UTF-8 byte-order mark (Windows editors add one) is not content: RFC 8259 lets parsers skip it.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    const positioned = /^([^"]*?) in JSON at position (\d+)/.exec((error as Error).message);
    const offset = positioned ? Number(positioned[2]) : (jsonErrorOffset(body) ?? body.length);
    const reason = positioned ? positioned[1] : offset >= body.length ? 'Unexpected end of JSON input' : unexpectedAt(body, offset);
    const lenient = readLenient(body);
    const [first, ...others] = lenient.problems.length > 0 ? lenient.problems : [{ offset, reason: `${reason}${hintAt(body, offset)}` }];
    const place = (at: number): string => {
      // Counted without the mark, as an editor shows the file.
      const { line, column } = lineColumn(body, at);
      return `${line}:${column}`;
    };
    const firstReason = first === undefined || first.offset === offset ? `${reason}${hintAt(body, offset)}` : first.reason;
    const also = others.length > 0 ? `; also ${others.map((problem) => `${place(problem.offset)} (${problem.reason})`).join(', ')}` : '';
    throw new ConfigError('E_CONFIG_JSON', `${file}:${place(first?.offset ?? offset)}: not valid JSON (${firstReason})${also}`, lenient.value);
  }
};
