/** A configuration problem the user must fix; the CLI prints `message` and exits 1. */
export class ConfigError extends Error {
  readonly code: 'E_CONFIG_JSON' | 'E_CONFIG_INVALID' | 'E_CONFIG_IO';
  constructor(code: ConfigError['code'], message: string) {
    super(message);
    this.name = 'ConfigError';
    this.code = code;
  }
}

/** Line and column (1-based) of a character offset, for "file:line:col" messages. */
export const lineColumn = (text: string, offset: number): { line: number; column: number } => {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
};

/**
 * JSON.parse, with a failure turned into a message naming file, line and column. V8 reports
 * "at position N" for most errors and nothing for a truncated document (then: the end).
 */
export const parseJsonFile = (file: string, text: string): unknown => {
  try {
    // A UTF-8 byte-order mark (Windows editors add one) is not content: RFC 8259 lets parsers skip it.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as unknown;
  } catch (error) {
    const detail = (error as Error).message;
    const match = /at position (\d+)/.exec(detail) ?? /\(line (\d+) column (\d+)\)/.exec(detail);
    const offset = match && match.length === 2 ? Number(match[1]) : text.length;
    const { line, column } = lineColumn(text, offset);
    const reason = detail.replace(/\s*in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
    throw new ConfigError('E_CONFIG_JSON', `${file}:${line}:${column}: not valid JSON (${reason})`);
  }
};
