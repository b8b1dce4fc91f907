/** Timestamps are unix seconds throughout the app; these helpers format them for people. */

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 hours ago", "yesterday", "in 2 minutes" (clock skew). */
export function formatRelative(seconds: number, nowMs: number): string {
  const delta = seconds - Math.floor(nowMs / 1000);
  const size = Math.abs(delta);
  if (size < 45) return 'just now';
  for (const [unit, length] of UNITS) {
    if (size >= length) return relative.format(Math.round(delta / length), unit);
  }
  return 'just now';
}

const absoluteUtc = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
  timeZone: 'UTC',
});
const absoluteLocal = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** "2 Feb 2024, 17:46:56 UTC" or the same in local time. */
export function formatAbsolute(seconds: number, zone: 'utc' | 'local' = 'utc'): string {
  const date = new Date(seconds * 1000);
  return zone === 'utc' ? `${absoluteUtc.format(date)} UTC` : absoluteLocal.format(date);
}

/** ISO 8601 for `<time dateTime>` and exports. */
export function toIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** "3 days", "5 hours": how long something lasted. */
export function formatDuration(seconds: number): string {
  const size = Math.max(0, Math.round(seconds));
  if (size < 60) return `${size} s`;
  for (const [unit, length] of UNITS) {
    if (size >= length) {
      const count = Math.floor(size / length);
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${size} s`;
}
