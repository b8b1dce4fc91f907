import { formatClock, formatDay } from './time';
import { DAY, parseUtc } from './utc';

/**
 * A span of time the events are narrowed to (a bar of the activity chart), from `from`
 * up to but not including `to`, in unix seconds. In the URL each end is a UTC date,
 * `2025-06-29`, or a date and minute, `2025-06-29T14:00Z`.
 */
export interface TimeSpan {
  from: number;
  to: number;
}

const parseEnd = (value: string | null) => (value ? parseUtc(value) : null);

/** The span of the URL's `from` and `to`, or null when either is missing or wrong. */
export function parseTimeSpan(from: string | null, to: string | null): TimeSpan | null {
  const start = parseEnd(from);
  const end = parseEnd(to);
  return start !== null && end !== null && start < end ? { from: start, to: end } : null;
}

/** One end as the URL writes it: the date alone at midnight, else the minute too. */
export function formatSpanEnd(seconds: number): string {
  const iso = new Date(Math.floor(seconds / 60) * 60_000).toISOString();
  return seconds % DAY === 0 ? iso.slice(0, 10) : `${iso.slice(0, 16)}Z`;
}

/** "29 Jun 2025", "2 Jun 2025 – 15 Jun 2025", "29 Jun 2025, 14:00–15:00", all UTC. */
export function formatSpan({ from, to }: TimeSpan): string {
  const last = to - 1;
  if (from % DAY === 0 && to % DAY === 0) {
    return to - from === DAY ? formatDay(from) : `${formatDay(from)} – ${formatDay(last)}`;
  }
  if (formatDay(from) === formatDay(last)) {
    return `${formatDay(from)}, ${formatClock(from)}–${to % DAY === 0 ? '24:00' : formatClock(to)}`;
  }
  return `${formatDay(from)}, ${formatClock(from)} – ${formatDay(to)}, ${formatClock(to)}`;
}

const quoted = (value: string) => `“${value.slice(0, 40)}”`;

/**
 * Why the URL's `from` and `to` make no span, in words, or null when they make one or
 * are both absent: an end that is no date, an end without the other, ends that run
 * backwards, or (with `nowSeconds`) a start after now.
 */
export function spanProblem(
  from: string | null,
  to: string | null,
  nowSeconds?: number,
): string | null {
  if (from === null && to === null) return null;
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== null && parseEnd(value) === null) {
      return `${quoted(value)} is not a date for “${name}” (like 2025-06-29 or 2025-06-29T14:00Z): the dates were left out.`;
    }
  }
  if (from === null || to === null) {
    return `The link has “${from === null ? 'to' : 'from'}” without “${from === null ? 'from' : 'to'}”: the dates were left out.`;
  }
  const start = parseEnd(from)!;
  if (start >= parseEnd(to)!) {
    return `“from” (${from}) is not before “to” (${to}): the dates were left out.`;
  }
  if (nowSeconds !== undefined && start > nowSeconds) {
    return `“from” (${from}) is in the future: the dates were left out.`;
  }
  return null;
}
