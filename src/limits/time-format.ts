/** `3d 4h`, `2h 41m`, `12m` for a span of whole minutes (at least one). */
const span = (minutes: number): string => {
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${mins}m`;
  return `${mins}m`;
};

/**
 * `in 2h 41m`, `in 3d 4h`, `in 12m`; `due now` once the instant has passed, and `passed 3d 0h
 * ago` once it is a minute behind: a provider that still names a reset long gone sends figures of
 * a window that has ended, and "due now" hid that.
 */
export const relativeTime = (target: number, now: number): string => {
  if (target <= now) {
    const ago = Math.floor((now - target) / 60_000);
    return ago < 1 ? 'due now' : `passed ${span(ago)} ago`;
  }
  const minutes = Math.floor((target - now) / 60_000);
  return minutes < 1 ? 'in under a minute' : `in ${span(minutes)}`;
};

/** `3 min ago`, `2 h ago`, `4 d ago`: how old figures written by an agent are. */
export const ageText = (at: number, now: number): string => {
  const minutes = Math.max(0, Math.floor((now - at) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ago`;
  return `${Math.floor(minutes / 1440)} d ago`;
};

/**
 * Absolute local time such as `Thu 10 Sep 16:41 UTC`. `tz` pins the zone (tests, snapshots);
 * without it the process's zone applies (TZ or the system setting).
 * NOTE: built from en-US parts, day first: en-GB's ICU data writes "Sept".
 */
export const absoluteTime = (epochMs: number, tz?: string): string => {
  const parts = formatterFor(tz).formatToParts(epochMs);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('hour')}:${part('minute')} ${part('timeZoneName')}`;
};

// NOTE: building an Intl.DateTimeFormat is costly; formatters are immutable, so one per zone is kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterFor = (tz: string | undefined): Intl.DateTimeFormat => {
  const key = tz ?? '';
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
      ...(tz ? { timeZone: tz } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
};

/** `20 Aug`: day and short month in the process's zone (cursor's billing-cycle bounds). */
export const dayMonth = (epochMs: number, tz?: string): string => {
  const parts = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', ...(tz ? { timeZone: tz } : {}) }).formatToParts(epochMs);
  return `${parts.find((p) => p.type === 'day')?.value ?? ''} ${parts.find((p) => p.type === 'month')?.value ?? ''}`;
};
