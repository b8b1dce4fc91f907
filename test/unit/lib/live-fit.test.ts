import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventRow } from '../../../src/lib/answers';
import { parseEventView } from '../../../src/lib/event-view';
import { liveFit, spanThrough } from '../../../src/lib/live-fit';
import { parseUtc, DAY } from '../../../src/lib/utc';

const WALLET = `0x${'4'.repeat(64)}`;
const row = (timestamp: number, more: Partial<EventRow> = {}): EventRow => ({
  id: '1',
  key: '1',
  eventId: '1',
  kind: 'sale',
  label: 'sale',
  contractAddress: `0x${'1'.repeat(64)}`,
  from: `0x${'2'.repeat(64)}`,
  to: WALLET,
  tokenId: '7',
  tokenIdHex: '0x7',
  timestamp,
  transactionHash: `0x${'3'.repeat(64)}`,
  records: 'transfer+sale',
  ...more,
});
const fit = (search: string, event: EventRow) =>
  liveFit(parseEventView(new URLSearchParams(search)), event);
const now = parseUtc('2026-11-29T15:00Z')!;

describe('where a live row goes in a collection’s events view', () => {
  it('takes it at the top of a newest-first view whose span holds it', () => {
    expect(fit('', row(now))).toBe('place');
    expect(fit('from=2026-11-29&to=2026-11-30', row(now))).toBe('place');
    expect(fit(`kind=sale&address=${WALLET}&token=7`, row(now))).toBe('place');
  });

  it('counts it in another sort', () => {
    expect(fit('sort=-token', row(now))).toBe('count');
    expect(fit('from=2026-11-29&to=2026-11-30&sort=price', row(now))).toBe('count');
  });

  it('counts it in a span that ended before it, whatever the sort', () => {
    expect(fit('from=2026-11-01&to=2026-11-29', row(now))).toBe('count');
    expect(fit('from=2026-11-01&to=2026-11-29&sort=-token', row(now))).toBe('count');
    expect(fit('from=2026-11-29T14:00Z&to=2026-11-29T15:00Z', row(now))).toBe('count');
  });

  it('offers nothing where the row can never belong', () => {
    expect(fit('kind=mint', row(now))).toBe('none');
    expect(fit(`address=0x${'5'.repeat(64)}`, row(now))).toBe('none');
    expect(fit('token=8', row(now))).toBe('none');
    expect(fit('wash=only', row(now))).toBe('none');
    expect(fit('wash=exclude', row(now, { washFlags: ['round trip'] }))).toBe('none');
    expect(fit('marketplace=Element', row(now))).toBe('none');
    expect(fit('currency=ETH', row(now))).toBe('none');
    // Before the span (history read deeper): no news for it.
    expect(fit('from=2026-11-30&to=2026-12-01', row(now))).toBe('none');
    // A past span does not make a refused row countable.
    expect(fit('from=2026-11-01&to=2026-11-29&kind=mint', row(now))).toBe('none');
  });
});

describe('a span made to hold a time', () => {
  it('ends at the next midnight when it is whole days, else the next minute', () => {
    const days = { from: parseUtc('2026-11-01')!, to: parseUtc('2026-11-29')! };
    expect(spanThrough(days, now)).toEqual({ from: days.from, to: parseUtc('2026-11-30')! });
    const hour = { from: parseUtc('2026-11-29T14:00Z')!, to: parseUtc('2026-11-29T15:00Z')! };
    expect(spanThrough(hour, now + 30)).toEqual({
      from: hour.from,
      to: parseUtc('2026-11-29T15:01Z')!,
    });
    expect(spanThrough(days, days.to - 1)).toBe(days);
  });

  it('keeps its start, holds the time, and ends on its grid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 1_000 * DAY }),
        (startDay, length, whole, later) => {
          const from = startDay * DAY + (whole ? 0 : 60 * (startDay % 1_440));
          const span = { from, to: from + length * (whole ? DAY : 60) };
          const seconds = span.from + later;
          const wide = spanThrough(span, seconds);
          expect(wide.from).toBe(span.from);
          expect(seconds).toBeLessThan(wide.to);
          expect(wide.to).toBeGreaterThanOrEqual(span.to);
          expect(wide.to % (whole ? DAY : 60)).toBe(0);
        },
      ),
    );
  });
});
