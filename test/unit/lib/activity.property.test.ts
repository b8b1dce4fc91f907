import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  barAt,
  chartRange,
  chooseInterval,
  intervalEnd,
  kindTotals,
  layoutBars,
  MAX_BAR_PX,
} from '../../../src/lib/activity';
import type { Interval, SeriesBucket } from '../../../src/lib/answers';
import { EVENT_KINDS } from '../../../src/lib/token-event';

const HOUR = 3600;
const DAY = 86_400;
const WIDTH = 800;
const JUNE = Date.UTC(2025, 5, 1) / 1000;

const bucket = (start: number, transfers = 1): SeriesBucket => ({
  start,
  counts: { mint: 0, transfer: transfers, sale: 0, burn: 0, other: 0 },
  volume: [],
});

/** How many intervals from `from` to `to`, counted by stepping from the first start. */
function intervalsIn(from: number, to: number, interval: Interval): number {
  let start = from;
  let count = 0;
  while (start < to) {
    start = intervalEnd(start, interval);
    count += 1;
  }
  return count;
}

describe('chooseInterval', () => {
  it.each([
    [HOUR, 'hour'],
    [2 * DAY, 'hour'],
    [3 * DAY, 'day'],
    [90 * DAY, 'day'],
    [365 * DAY, 'week'],
    [5 * 365 * DAY, 'month'],
  ] as const)('a range of %i s is drawn in %ss', (span, interval) => {
    expect(chooseInterval({ from: JUNE, to: JUNE + span })).toBe(interval);
  });

  it('gives a useful number of bars: no more than a phone can draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: HOUR, max: 10 * 365 * DAY }),
        (from, span) => {
          const interval = chooseInterval({ from, to: from + span });
          expect(intervalsIn(from, from + span, interval)).toBeLessThanOrEqual(125);
        },
      ),
    );
  });
});

describe('chartRange', () => {
  const NOW = Date.UTC(2026, 10, 27) / 1000;
  it('covers a collection from its first event to its last, not to today', () => {
    const first = Date.UTC(2023, 2, 1) / 1000;
    const range = chartRange(null, { first, last: first + 10 * DAY }, NOW);
    expect(range).toEqual({ from: first, to: first + 10 * DAY + 1, interval: 'day' });
  });

  it('covers the view’s span when it has one, never past now, at least an hour', () => {
    const active = { first: NOW - 400 * DAY, last: NOW - DAY };
    const span = { from: NOW - 3 * DAY, to: NOW + 5 * DAY };
    expect(chartRange(span, active, NOW)).toEqual({ from: span.from, to: NOW, interval: 'day' });
    expect(chartRange(null, { first: NOW - 60, last: NOW - 60 }, NOW)).toEqual({
      from: NOW - 60,
      to: NOW - 60 + HOUR,
      interval: 'hour',
    });
    expect(chartRange(null, { first: null, last: null }, NOW).to).toBe(NOW);
  });
});

describe('intervalEnd', () => {
  it('ends months on the first of the next, whatever their length', () => {
    expect(intervalEnd(Date.UTC(2024, 1, 1) / 1000, 'month')).toBe(Date.UTC(2024, 2, 1) / 1000);
    expect(intervalEnd(Date.UTC(2025, 11, 1) / 1000, 'month')).toBe(Date.UTC(2026, 0, 1) / 1000);
    expect(intervalEnd(JUNE, 'week')).toBe(JUNE + 7 * DAY);
  });
});

/** A bucket's start five intervals before `time` (UTC; weeks on Monday). */
function boundaryBefore(time: number, interval: Interval): number {
  const date = new Date(time * 1000);
  switch (interval) {
    case 'hour':
      return Math.floor(time / HOUR) * HOUR - 5 * HOUR;
    case 'day':
      return Math.floor(time / DAY) * DAY - 5 * DAY;
    case 'week':
      return (Math.floor(time / DAY) - ((date.getUTCDay() + 6) % 7)) * DAY - 5 * 7 * DAY;
    case 'month':
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - 5, 1) / 1000;
  }
}

describe('layoutBars', () => {
  const cases = fc
    .record({
      interval: fc.constantFrom<Interval>('hour', 'day', 'week', 'month'),
      from: fc.integer({ min: JUNE - 400 * DAY, max: JUNE }),
      span: fc.integer({ min: HOUR, max: 800 * DAY }),
      offsets: fc.uniqueArray(fc.integer({ min: -3, max: 200 }), { maxLength: 60 }),
      width: fc.integer({ min: 250, max: 1400 }),
    })
    .map(({ interval, from, span, offsets, width }) => {
      // Buckets on the interval's boundaries around the range, as the server makes them:
      // from a boundary a few intervals before it.
      const starts: number[] = [];
      let start = boundaryBefore(from, interval);
      const all: number[] = [];
      for (let k = 0; k < 1000 && start < from + span + 5 * 31 * DAY; k += 1) {
        all.push(start);
        start = intervalEnd(start, interval);
      }
      const firstIn = all.findIndex((time) => intervalEnd(time, interval) > from);
      for (const offset of offsets) {
        const time = all[firstIn + offset];
        if (time !== undefined) starts.push(time);
      }
      return {
        interval,
        range: { from, to: from + span },
        buckets: starts.map((s) => bucket(s)),
        width,
      };
    });

  it('puts each bar at its time within the range, in order, apart, never wider than allowed', () => {
    fc.assert(
      fc.property(cases, ({ interval, range, buckets, width }) => {
        const bars = layoutBars([...buckets].reverse(), interval, range, width);
        const inside = buckets.filter(
          (b) => b.start < range.to && intervalEnd(b.start, interval) > range.from,
        );
        expect(bars).toHaveLength(inside.length);
        const span = range.to - range.from;
        bars.forEach((bar, index) => {
          expect(bar.span.from).toBeGreaterThanOrEqual(range.from);
          expect(bar.span.to).toBeLessThanOrEqual(range.to);
          expect(bar.slotX).toBeCloseTo(((bar.span.from - range.from) / span) * width, 6);
          expect(bar.width).toBeLessThanOrEqual(MAX_BAR_PX);
          expect(bar.x).toBeGreaterThanOrEqual(bar.slotX - 1);
          expect(bar.x + bar.width).toBeLessThanOrEqual(bar.slotX + bar.slotWidth + 1);
          const next = bars[index + 1];
          if (next) expect(next.span.from).toBeGreaterThanOrEqual(bar.span.to);
        });
      }),
    );
  });

  it('draws one hour in a day thin, one hour drilled into as a bar, not the whole chart', () => {
    const day = { from: JUNE, to: JUNE + DAY };
    const [thin] = layoutBars([bucket(JUNE + 5 * HOUR)], 'hour', day, WIDTH);
    expect(thin!.width).toBeCloseTo((WIDTH / 24) * 0.8);
    expect(thin!.slotX).toBeCloseTo((WIDTH * 5) / 24);
    const hour = { from: JUNE + 5 * HOUR, to: JUNE + 6 * HOUR };
    const [drilled] = layoutBars([bucket(JUNE + 5 * HOUR)], 'hour', hour, WIDTH);
    expect(drilled!.width).toBe(MAX_BAR_PX);
    expect(drilled!.x).toBeCloseTo((WIDTH - MAX_BAR_PX) / 2);
  });

  it('leaves the time between buckets empty and stops at the range’s end', () => {
    const range = { from: JUNE, to: JUNE + 20 * DAY };
    const bars = layoutBars(
      [bucket(JUNE + 10 * DAY), bucket(JUNE), bucket(JUNE + 25 * DAY)],
      'day',
      range,
      WIDTH,
    );
    expect(bars.map((bar) => bar.slotX)).toEqual([0, WIDTH / 2]);
  });
});

describe('barAt', () => {
  const bars = layoutBars(
    [bucket(JUNE), bucket(JUNE + 10 * DAY)],
    'day',
    {
      from: JUNE,
      to: JUNE + 20 * DAY,
    },
    WIDTH,
  );
  it('finds the bar whose slot holds the point, or a near one, or none in a wide gap', () => {
    expect(barAt(bars, 20, 8)).toBe(0);
    expect(barAt(bars, 405, 8)).toBe(1);
    expect(barAt(bars, 45, 8)).toBe(0);
    expect(barAt(bars, 200, 8)).toBeNull();
  });
});

describe('kindTotals', () => {
  it('adds each kind over the buckets', () => {
    const totals = kindTotals([bucket(JUNE, 2), bucket(JUNE + DAY, 3)]);
    expect(totals.transfer).toBe(5);
    expect(EVENT_KINDS.every((kind) => typeof totals[kind] === 'number')).toBe(true);
  });
});
