/**
 * Lengths of time and UTC dates, in one place. Unix time has no leap seconds, so a UTC
 * day is always 86,400 of them.
 */
export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;
export const WEEK = 7 * DAY;
/** 5 Jan 1970, the first Monday after the epoch: weeks (the charts', the series') start on Monday. */
export const FIRST_MONDAY = 4 * DAY;
export const HOUR_MS = HOUR * 1000;
export const DAY_MS = DAY * 1000;

const UTC_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?Z)?$/;

/**
 * A UTC date (`2025-06-29`, its midnight), minute (`2025-06-29T14:00Z`) or second
 * (`2025-06-29T14:00:05Z`) as unix seconds; null when it is none of those or no such
 * moment (`2025-02-30`, `T24:00Z`: `Date.UTC` would quietly roll them over). With
 * `dateOnly`, a time of day is refused.
 */
export function parseUtc(value: string, { dateOnly = false } = {}): number | null {
  const match = UTC_TIME.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute = '0', second = '0'] = match;
  if (dateOnly && hour !== undefined) return null;
  const ms = Date.UTC(+year!, +month! - 1, +day!, +(hour ?? 0), +minute, +second);
  const date = new Date(ms);
  const valid =
    date.getUTCMonth() === +month! - 1 &&
    date.getUTCDate() === +day! &&
    +(hour ?? 0) < 24 &&
    +minute < 60 &&
    +second < 60;
  return valid ? ms / 1000 : null;
}

/** A moment's UTC date as URLs, file names and date inputs write it: `2025-06-29`. */
export const formatUtcDay = (seconds: number) =>
  new Date(seconds * 1000).toISOString().slice(0, 10);
