/**
 * `now`, `45s`, `12m`, `3h`, `2d`: how long ago `at` was at `now` (epoch ms), as the TUI rows and
 * the dashboard cards show it. Pure; shared by both so the two interfaces never disagree.
 */
export const compactAge = (at: number, now: number): string => {
  const seconds = Math.max(0, Math.floor((now - at) / 1000));
  if (seconds < 5) return 'now';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
};
