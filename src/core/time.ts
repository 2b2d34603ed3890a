/**
 * How the API writes a time it does not know: Go's zero time, as lazyagent (whose clients must
 * work unchanged, docs/api.md) marshals an unset `time.Time`. It is still RFC 3339, so a
 * client's date parser (the iOS app's, a script's) reads it where an empty string would fail.
 */
export const UNKNOWN_TIME = '0001-01-01T00:00:00Z';

const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
/** Epoch ms of 10000-01-01: from there on `toISOString` writes a six-digit year. */
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * RFC 3339 UTC of epoch ms, exactly as `Date.prototype.toISOString` writes it; UNKNOWN_TIME for an
 * unknown time (0 or not finite). Why not `toISOString`: a listing of 7,000 sessions formats
 * 100,000 times (each recent tool and message has one), and the date's civil fields computed here
 * (days to year/month/day by Hinnant's algorithm) cost a quarter of it.
 */
export const rfc3339 = (ms: number): string => {
  if (!(ms > 0) || !Number.isFinite(ms)) return UNKNOWN_TIME;
  if (ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const whole = Math.floor(ms);
  const days = Math.floor(whole / 86_400_000);
  const inDay = whole - days * 86_400_000;
  // Civil date from days since 1970-01-01 (proleptic Gregorian, eras of 400 years).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(inDay / 3_600_000);
  const minutes = Math.floor((inDay % 3_600_000) / 60_000);
  const seconds = Math.floor((inDay % 60_000) / 1000);
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(inDay % 1000)}Z`;
};

/** Epoch ms of an RFC 3339 time from the API; 0 when unknown (UNKNOWN_TIME, "", or not a time). */
export const timeOf = (iso: string): number => {
  const at = Date.parse(iso);
  return Number.isFinite(at) && at > 0 ? at : 0;
};
