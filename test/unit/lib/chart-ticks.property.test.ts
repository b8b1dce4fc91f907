import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timeTicks, valueTicks, type TickStep } from '../../../src/lib/chart-ticks';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const LABEL_PX = { minute: 52, hour: 52, day: 60, week: 60, month: 76, year: 48 };

describe('valueTicks', () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [4, [0, 1, 2, 3, 4]],
    [7, [0, 2, 4, 6, 8]],
    [412, [0, 200, 400, 600]],
  ])('counts up to %i: %j', (max, ticks) => {
    expect(valueTicks(max, { whole: true })).toEqual(ticks);
  });

  it('counts in whole numbers from zero to at least the largest, in even steps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (max) => {
        const ticks = valueTicks(max, { whole: true });
        expect(ticks[0]).toBe(0);
        expect(ticks.every(Number.isInteger)).toBe(true);
        expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(max);
        expect(ticks.length).toBeLessThanOrEqual(5);
        const step = ticks[1]!;
        ticks.forEach((tick, index) => expect(tick).toBe(index * step));
      }),
    );
  });

  it('amounts reach the largest in steps of 1, 2 or 5 times a power of ten', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1e24, noNaN: true }), (max) => {
        const ticks = valueTicks(max);
        expect(ticks[ticks.length - 1]!).toBeGreaterThanOrEqual(max * (1 - 1e-9));
        expect(ticks.length).toBeLessThanOrEqual(5);
        const step = ticks[1]!;
        const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
        expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
      }),
    );
  });
});

/** Whether a tick falls on its step's calendar boundary (UTC; weeks on Monday). */
function aligned(tick: number, { unit, size }: TickStep): boolean {
  const date = new Date(tick * 1000);
  switch (unit) {
    case 'minute':
      return tick % (size * MINUTE) === 0;
    case 'hour':
      return tick % (size * HOUR) === 0;
    case 'day':
      return tick % (size * DAY) === 0;
    case 'week':
      return tick % DAY === 0 && date.getUTCDay() === 1;
    case 'month':
      return tick % DAY === 0 && date.getUTCDate() === 1 && date.getUTCMonth() % size === 0;
    case 'year':
      return (
        tick % DAY === 0 &&
        date.getUTCDate() === 1 &&
        date.getUTCMonth() === 0 &&
        date.getUTCFullYear() % size === 0
      );
  }
}

describe('timeTicks', () => {
  const ranges = fc
    .record({
      from: fc.integer({ min: 1_500_000_000, max: 1_800_000_000 }),
      span: fc.oneof(
        fc.integer({ min: 60, max: 3 * HOUR }),
        fc.integer({ min: 3 * HOUR, max: 10 * DAY }),
        fc.integer({ min: 10 * DAY, max: 3000 * DAY }),
      ),
      width: fc.integer({ min: 250, max: 1400 }),
    })
    .map(({ from, span, width }) => ({ range: { from, to: from + span }, width }));

  it('ticks a range whose coarser step starts a second before it (found by the property below)', () => {
    // Monday 17 Jul 2023, 00:00:01 to Saturday 22 Jul: days too many for 250 px, no Monday.
    const { ticks } = timeTicks({ from: 1689552001, to: 1689984000 }, 250);
    expect(ticks.length).toBeGreaterThanOrEqual(1);
  });

  it('puts ticks inside the range, on calendar steps, evenly, as many as labels have room', () => {
    fc.assert(
      fc.property(ranges, ({ range, width }) => {
        const { step, ticks } = timeTicks(range, width);
        expect(ticks.length).toBeLessThanOrEqual(Math.floor(width / LABEL_PX[step.unit]));
        for (const tick of ticks) {
          expect(tick).toBeGreaterThanOrEqual(range.from);
          expect(tick).toBeLessThanOrEqual(range.to);
          expect(aligned(tick, step)).toBe(true);
        }
        for (let index = 2; index < ticks.length; index += 1) {
          const gap = ticks[index]! - ticks[index - 1]!;
          const before = ticks[index - 1]! - ticks[index - 2]!;
          // Months and years differ in length by days; anything finer is exactly even.
          if (step.unit === 'month' || step.unit === 'year') {
            expect(Math.abs(gap - before)).toBeLessThanOrEqual(3 * DAY);
          } else expect(gap).toBe(before);
        }
        // Not a coarser step than needed: the range has at least one tick more often than not.
        expect(ticks.length).toBeGreaterThanOrEqual(range.to - range.from >= 2 * HOUR ? 1 : 0);
      }),
    );
  });

  it('steps in minutes within an hour, in weeks over a month, in months over years', () => {
    const hour = Date.UTC(2025, 5, 16, 14) / 1000;
    expect(timeTicks({ from: hour, to: hour + HOUR }, 800)).toEqual({
      step: { unit: 'minute', size: 5 },
      ticks: Array.from({ length: 13 }, (_, k) => hour + k * 5 * MINUTE),
    });
    const june = Date.UTC(2025, 5, 1) / 1000;
    expect(timeTicks({ from: june, to: june + 10 * DAY }, 800).step).toEqual({
      unit: 'day',
      size: 1,
    });
    const month = timeTicks({ from: june, to: june + 30 * DAY }, 800);
    expect(month.step).toEqual({ unit: 'week', size: 1 });
    // Mondays: 2, 9, 16, 23 and 30 June 2025.
    expect(month.ticks).toEqual([1, 8, 15, 22, 29].map((day) => june + day * DAY));
    expect(timeTicks({ from: june, to: june + 2 * DAY }, 350).step).toEqual({
      unit: 'hour',
      size: 12,
    });
    const years = timeTicks({ from: june, to: june + 5 * 365 * DAY }, 800);
    expect(years.step).toEqual({ unit: 'month', size: 6 });
  });
});
