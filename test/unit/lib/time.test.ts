import { describe, expect, it } from 'vitest';
import {
  formatAbsolute,
  formatAxisTick,
  formatDay,
  formatDuration,
  formatRelative,
} from '../../../src/lib/time';

const NOW = Date.UTC(2025, 5, 29, 23, 30, 0); // 29 Jun 2025, 23:30:00 UTC
const ago = (seconds: number) => NOW / 1000 - seconds;
const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;

describe('formatRelative', () => {
  it.each([
    [0, '<1 min ago'],
    [59, '<1 min ago'],
    [60, '1 min ago'],
    [12 * MIN + 59, '12 min ago'],
    [HOUR, '1 h ago'],
    [5 * HOUR + 12 * MIN + 30, '5 h 12 min ago'],
    [23 * HOUR + 59 * MIN, '23 h 59 min ago'],
    [DAY, '1 d ago'],
    [3 * DAY + 4 * HOUR + 59 * MIN, '3 d 4 h ago'],
    [7 * DAY - 1, '6 d 23 h ago'],
    // Past a week: still relative (a column never mixes ages with dates), coarser.
    [7 * DAY, '7 d ago'],
    [59 * DAY, '59 d ago'],
    [90 * DAY, '2 mo ago'],
    [400 * DAY + 5 * MIN, '1 y 1 mo ago'],
    [2 * 365.25 * DAY, '2 y ago'],
    // A clock a little behind the event: now, not "in 10 s".
    [-10, '<1 min ago'],
  ])('%i s ago reads %j', (seconds, text) => {
    expect(formatRelative(ago(seconds), NOW)).toBe(text);
  });

  it('tells apart rows that "5 hours ago" made equal', () => {
    expect(formatRelative(ago(5 * HOUR + 2 * MIN), NOW)).not.toBe(
      formatRelative(ago(5 * HOUR + 40 * MIN), NOW),
    );
  });

  it('never gives a date, however old the time: every row of a column reads as an age', () => {
    for (const days of [6, 7, 8, 30, 31, 200, 366, 3000]) {
      expect(formatRelative(ago(days * DAY), NOW)).toMatch(/ ago$/);
    }
  });
});

describe('other formats', () => {
  it('formats exact times, days and durations', () => {
    expect(formatAbsolute(ago(0))).toBe('29 Jun 2025, 23:30:00 UTC');
    expect(formatDay(ago(0))).toBe('29 Jun 2025');
    expect(formatDuration(3 * DAY + 5)).toBe('3 days');
    expect(formatDuration(59)).toBe('59 s');
    expect(formatDuration(61)).toBe('1 minute');
  });
});

describe('formatAxisTick', () => {
  const midnight = Date.UTC(2025, 5, 29) / 1000;
  it.each([
    [midnight + 14 * HOUR + 30 * MIN, 'minute', '14:30'],
    [midnight + 6 * HOUR, 'hour', '06:00'],
    // Midnight on an axis of hours names the day that starts.
    [midnight, 'hour', '29 Jun'],
    [midnight, 'day', '29 Jun'],
    [midnight, 'week', '29 Jun'],
    [Date.UTC(2025, 5, 1) / 1000, 'month', 'Jun 2025'],
    [Date.UTC(2025, 0, 1) / 1000, 'year', '2025'],
  ] as const)('%i on an axis of %s: %s', (seconds, unit, text) => {
    expect(formatAxisTick(seconds, unit)).toBe(text);
  });
});
