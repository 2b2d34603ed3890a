/**
 * How the API writes a time it does not know: Go's zero time, as lazyagent (whose clients must
 * work unchanged, PRODUCT.md section 4) marshals an unset `time.Time`. It is still RFC 3339, so a
 * client's date parser (the iOS app's, a script's) reads it where an empty string would fail.
 */
export const UNKNOWN_TIME = '0001-01-01T00:00:00Z';

/** RFC 3339 UTC of epoch ms; UNKNOWN_TIME for an unknown time (0 or not finite). */
export const rfc3339 = (ms: number): string => (ms > 0 && Number.isFinite(ms) ? new Date(ms).toISOString() : UNKNOWN_TIME);

/** Epoch ms of an RFC 3339 time from the API; 0 when unknown (UNKNOWN_TIME, "", or not a time). */
export const timeOf = (iso: string): number => {
  const at = Date.parse(iso);
  return Number.isFinite(at) && at > 0 ? at : 0;
};
