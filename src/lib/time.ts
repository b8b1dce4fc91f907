import type { TickUnit } from './chart-ticks';
import { DAY, HOUR } from './utc';

/** Timestamps are unix seconds throughout the app; these helpers format them for people. */

const MINUTE = 60;
/** Past this, a relative time counts days alone, then months, then years. */
const RELATIVE_LIMIT = 7 * DAY;
const YEAR = 365.25 * DAY;
const MONTH = YEAR / 12;

export type TimeZoneChoice = 'utc' | 'local';

const UTC = { timeZone: 'UTC' } as const;
const formats = {
  absolute: { dateStyle: 'medium', timeStyle: 'medium' },
  minute: { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
  day: { day: 'numeric', month: 'short', year: 'numeric' },
  hour: { hour: '2-digit', minute: '2-digit' },
  dayOfMonth: { day: 'numeric', month: 'short' },
  month: { month: 'short', year: 'numeric' },
  year: { year: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
type FormatName = keyof typeof formats;

/** One formatter per format and zone: `Intl.DateTimeFormat` is costly to make, cheap to use. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(name: FormatName, zone: TimeZoneChoice): Intl.DateTimeFormat {
  const key = `${name}:${zone}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat('en-GB', {
      ...formats[name],
      ...(name !== 'absolute' && { hourCycle: 'h23' }),
      ...(zone === 'utc' && UTC),
    });
    formatters.set(key, made);
  }
  return made;
}
const format = (name: FormatName, seconds: number, zone: TimeZoneChoice = 'utc') =>
  formatter(name, zone).format(new Date(seconds * 1000));

/**
 * How long ago, precise enough to tell neighbouring rows apart, as block explorers write
 * it: "<1 min ago", "12 min ago", "5 h 12 min ago", "3 d 4 h ago"; past a week coarser,
 * but always relative (a column never mixes ages with dates): "23 d ago", "5 mo ago",
 * "2 y 3 mo ago". The exact time is the cell's tooltip. A time a little in the future (a
 * clock running behind) reads "<1 min ago".
 */
export function formatRelative(seconds: number, nowMs: number): string {
  const age = Math.max(0, Math.floor(nowMs / 1000) - seconds);
  if (age < MINUTE) return '<1 min ago';
  if (age < HOUR) return `${Math.floor(age / MINUTE)} min ago`;
  if (age < DAY) return `${Math.floor(age / HOUR)} h${part(age % HOUR, MINUTE, 'min')} ago`;
  if (age < RELATIVE_LIMIT) return `${Math.floor(age / DAY)} d${part(age % DAY, HOUR, 'h')} ago`;
  if (age < 2 * MONTH) return `${Math.floor(age / DAY)} d ago`;
  if (age < YEAR) return `${Math.floor(age / MONTH)} mo ago`;
  return `${Math.floor(age / YEAR)} y${part(age % YEAR, MONTH, 'mo')} ago`;
}

/** " 12 min", or nothing for zero: "5 h ago" rather than "5 h 0 min ago". */
function part(rest: number, unit: number, name: string): string {
  const count = Math.floor(rest / unit);
  return count > 0 ? ` ${count} ${name}` : '';
}

/** "2 Feb 2024, 17:46:56" in the zone: where the zone is said once, as a column's header. */
export function formatExact(seconds: number, zone: TimeZoneChoice = 'utc'): string {
  return format('absolute', seconds, zone);
}

/** "2 Feb 2024, 17:46:56 UTC", or the same in local time without the zone's name. */
export function formatAbsolute(seconds: number, zone: TimeZoneChoice = 'utc'): string {
  const text = formatExact(seconds, zone);
  return zone === 'utc' ? `${text} UTC` : text;
}

/** "2 Feb 2024", in UTC: the chart's days are UTC days. */
export function formatDay(seconds: number): string {
  return format('day', seconds);
}

/** "2 Feb 2024, 17:00", in UTC. */
export function formatMinute(seconds: number): string {
  return format('minute', seconds);
}

/** "17:00", in UTC. */
export function formatClock(seconds: number): string {
  return format('hour', seconds);
}

/**
 * A tick's label on a time axis whose ticks are `unit`s apart, in UTC: "14:30" within a
 * day (the day itself, "29 Jun", at midnight), "29 Jun" for days and weeks, "Jun 2025"
 * for months, "2025" for years.
 */
export function formatAxisTick(seconds: number, unit: TickUnit): string {
  switch (unit) {
    case 'minute':
    case 'hour':
      return format(seconds % DAY === 0 ? 'dayOfMonth' : 'hour', seconds);
    case 'day':
    case 'week':
      return format('dayOfMonth', seconds);
    case 'month':
      return format('month', seconds);
    case 'year':
      return format('year', seconds);
  }
}

/** ISO 8601 for `<time dateTime>` and exports. */
export function toIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

const DURATION_UNITS: Array<[string, number]> = [
  ['year', 365 * DAY],
  ['month', 30 * DAY],
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
];

/** "3 days", "5 hours": how long something lasted. */
export function formatDuration(seconds: number): string {
  const size = Math.max(0, Math.round(seconds));
  for (const [unit, length] of DURATION_UNITS) {
    if (size >= length) {
      const count = Math.floor(size / length);
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${size} s`;
}
