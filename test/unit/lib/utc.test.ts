import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatUtcDay, parseUtc } from '../../../src/lib/utc';

describe('parseUtc', () => {
  it('reads a date, a minute and a second, all UTC', () => {
    expect(parseUtc('2025-06-29')).toBe(Date.UTC(2025, 5, 29) / 1000);
    expect(parseUtc('2025-06-29T14:00Z')).toBe(Date.UTC(2025, 5, 29, 14) / 1000);
    expect(parseUtc('2025-06-29T14:00:05Z')).toBe(Date.UTC(2025, 5, 29, 14, 0, 5) / 1000);
  });

  it('refuses what is no moment instead of rolling it over', () => {
    for (const value of [
      '2025-02-30',
      '2025-13-01',
      '2025-00-10',
      '2025-06-29T24:00Z',
      '2025-06-29T12:60Z',
      '2025-06-29T12:00:60Z',
      '2025-06-29T14:00',
      '29-06-2025',
      'yesterday',
      '',
    ]) {
      expect(parseUtc(value), value).toBeNull();
    }
  });

  it('takes a date alone when asked to', () => {
    expect(parseUtc('2025-06-29', { dateOnly: true })).toBe(Date.UTC(2025, 5, 29) / 1000);
    expect(parseUtc('2025-06-29T00:00Z', { dateOnly: true })).toBeNull();
  });

  it('reads back every second it writes, and every day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_799 }), (seconds) => {
        const iso = new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
        expect(parseUtc(iso)).toBe(seconds);
        const midnight = seconds - (seconds % 86_400);
        expect(parseUtc(formatUtcDay(seconds), { dateOnly: true })).toBe(midnight);
      }),
    );
  });
});
