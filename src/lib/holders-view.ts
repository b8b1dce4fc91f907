import { readTimeDisplay, Reasons, searchReading, type SearchReading } from './param-reading';
import { formatTimeDisplay } from './view-state';

/**
 * A collection's holders as its URL states them: now, or as of the end of a UTC day
 * (`asOf=2025-06-29`), and the time display. The snapshot of a day is taken at the next
 * midnight, so the day's own changes of hands are in it. A malformed day, or one after
 * today, falls back to now; the canonical search leaves defaults out.
 */
const DAY = 86_400;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `2025-06-29` as its UTC midnight (unix seconds), or null when it is no such day. */
export function parseDay(value: string | null): number | null {
  const match = value ? DATE.exec(value.trim()) : null;
  if (!match) return null;
  const [, year, month, day] = match;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day));
  // 2025-02-30 is no day: Date.UTC would quietly make it 2 March.
  if (new Date(ms).getUTCDate() !== Number(day) || Number(year) < 1970) return null;
  return ms / 1000;
}

/** A UTC midnight as the URL writes it: `2025-06-29`. */
export const formatDayParam = (midnight: number) =>
  new Date(midnight * 1000).toISOString().slice(0, 10);

/** The start of today, UTC: the last day a snapshot can be asked for. */
export const todayStart = (nowMs: number) => Math.floor(nowMs / 1000 / DAY) * DAY;

/** The URL's day, when it is one and not after today; null is now. */
export function parseAsOfDay(value: string | null, nowMs: number): number | null {
  const day = parseDay(value);
  return day !== null && day <= todayStart(nowMs) ? day : null;
}

/** Why a day typed into the field is not taken, or null when it is. */
export function asOfProblem(value: string, nowMs: number): string | null {
  const day = parseDay(value);
  if (day === null) return 'Enter a day as year-month-day, like 2025-06-29.';
  if (day > todayStart(nowMs))
    return `Pick a day up to today (${formatDayParam(todayStart(nowMs))}, UTC).`;
  return null;
}

/** Why the URL's `asOf` is not taken, in words, or null when it is or is absent. */
export function asOfParamProblem(value: string | null, nowMs: number): string | null {
  if (value === null) return null;
  const day = parseDay(value);
  const quoted = `“${value.slice(0, 40)}”`;
  if (day === null)
    return `“asOf” ${quoted} is not a day (like 2025-06-29): the holders now are shown.`;
  if (day > todayStart(nowMs)) {
    return `“asOf” ${quoted} is after today (${formatDayParam(todayStart(nowMs))}, UTC): the holders now are shown.`;
  }
  return null;
}

/** The holders page's search read: `asOf` and `time`, and why values were left out. */
export function readHoldersSearch(params: URLSearchParams, nowMs: number): SearchReading {
  const reasons = new Reasons();
  reasons.add(asOfParamProblem(params.get('asOf'), nowMs));
  const day = parseAsOfDay(params.get('asOf'), nowMs);
  return searchReading(
    params,
    [
      ['asOf', day === null ? null : formatDayParam(day)],
      ['time', formatTimeDisplay(reasons.take(readTimeDisplay(params.get('time'))))],
    ],
    reasons,
  );
}

/**
 * The query API's parameters for a day (null: now): `asOf` is the moment the snapshot is
 * taken, the next midnight. The answer, its pages and its file share them.
 */
export function holdersApiSearch(day: number | null): string {
  return day === null ? '' : `asOf=${formatDayParam(day + DAY)}`;
}
