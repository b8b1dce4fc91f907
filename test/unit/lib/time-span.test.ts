import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSpan, formatSpanEnd, parseTimeSpan } from '../../../src/lib/time-span';
import { readEventSearch } from '../../../src/lib/event-view';

const DAY = 86_400;
const JUNE_29 = Date.UTC(2025, 5, 29) / 1000;

describe('time spans', () => {
  it('reads and writes the URL’s ends', () => {
    expect(parseTimeSpan('2025-06-29', '2025-06-30')).toEqual({ from: JUNE_29, to: JUNE_29 + DAY });
    expect(parseTimeSpan('2025-06-29T14:00Z', '2025-06-29T15:00Z')).toEqual({
      from: JUNE_29 + 14 * 3600,
      to: JUNE_29 + 15 * 3600,
    });
    expect(formatSpanEnd(JUNE_29)).toBe('2025-06-29');
    expect(formatSpanEnd(JUNE_29 + 14 * 3600)).toBe('2025-06-29T14:00Z');
  });

  it.each([
    [null, '2025-06-30'],
    ['2025-06-30', '2025-06-29'],
    ['2025-02-30', '2025-03-02'],
    ['2025-06-29T24:00Z', '2025-06-30T01:00Z'],
    ['yesterday', 'today'],
    ['1751155200', '1751241600'],
  ])('refuses %j – %j', (from, to) => {
    expect(parseTimeSpan(from, to)).toBeNull();
  });

  it('round-trips any span of whole minutes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 66_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (start, minutes) => {
          const span = { from: start * 60, to: (start + minutes) * 60 };
          expect(parseTimeSpan(formatSpanEnd(span.from), formatSpanEnd(span.to))).toEqual(span);
        },
      ),
    );
  });

  it.each([
    [{ from: JUNE_29, to: JUNE_29 + DAY }, '29 Jun 2025'],
    [{ from: JUNE_29, to: JUNE_29 + 14 * DAY }, '29 Jun 2025 – 12 Jul 2025'],
    [{ from: JUNE_29 + 14 * 3600, to: JUNE_29 + 15 * 3600 }, '29 Jun 2025, 14:00–15:00'],
    [{ from: JUNE_29 + 18 * 3600, to: JUNE_29 + DAY }, '29 Jun 2025, 18:00–24:00'],
    [
      { from: JUNE_29 + 18 * 3600, to: JUNE_29 + DAY + 6 * 3600 },
      '29 Jun 2025, 18:00 – 30 Jun 2025, 06:00',
    ],
  ])('names %j as %s', (span, text) => {
    expect(formatSpan(span)).toBe(text);
  });
});

describe('a span in the URL', () => {
  it('stays in the canonical search when it is one, and goes when it is not', () => {
    expect(
      readEventSearch(new URLSearchParams('to=2025-06-30&from=2025-06-29&kind=sale')).search,
    ).toBe('?from=2025-06-29&kind=sale&to=2025-06-30');
    expect(readEventSearch(new URLSearchParams('from=2025-06-30&to=2025-06-29')).search).toBe('');
  });
});
