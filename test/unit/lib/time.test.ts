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
    // Past a week: the date and minute.
    [7 * DAY, '22 Jun 2025, 23:30'],
    [400 * DAY + 5 * MIN, '25 May 2024, 23:25'],
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

  it('writes dates in the reader’s zone', () => {
    const old = ago(30 * DAY);
    expect(formatRelative(old, NOW, 'utc')).toBe('30 May 2025, 23:30');
    expect(formatRelative(old, NOW, 'local')).toMatch(/^\d{1,2} [A-Z][a-z]{2,3} 2025, \d\d:\d\d$/);
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
