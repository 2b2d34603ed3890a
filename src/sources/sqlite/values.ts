/**
 * SQLite hands back TEXT as string and BLOB as Buffer; agents store JSON as either. These helpers
 * decode both and never throw, so one odd value is one diagnostic.
 */
export const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return undefined;
};

export type JsonResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** Parse a TEXT or BLOB column holding JSON into `unknown` (zod decides the rest). */
export const parseJsonValue = (value: unknown): JsonResult => {
  const text = textOf(value);
  if (text === undefined) return { ok: false, error: value === null ? 'value is NULL' : `value is a ${typeof value}, not text` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `invalid JSON (${text.length} bytes): ${error instanceof Error ? error.message : String(error)}` };
  }
};

/** A finite number from an INTEGER/REAL column (bigint when safeIntegers is on), else undefined. */
export const numberOf = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  return undefined;
};

/** Non-empty string or undefined. */
export const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
