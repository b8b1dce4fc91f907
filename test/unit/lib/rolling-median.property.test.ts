import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { medianWindow, rollingMedian } from '../../../src/lib/rolling-median';

function naiveMedian(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

describe('rollingMedian', () => {
  it('is the median of each window of the last values, null before the first full one', () => {
    fc.assert(
      fc.property(
        // Few distinct values, so windows hold equal ones (the removal's hard case).
        fc.array(
          fc.oneof(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 1e6, noNaN: true })),
          {
            maxLength: 200,
          },
        ),
        fc.integer({ min: 1, max: 30 }),
        (values, window) => {
          const medians = rollingMedian(values, window);
          expect(medians).toHaveLength(values.length);
          medians.forEach((median, index) => {
            if (index < window - 1) expect(median).toBeNull();
            else expect(median).toBe(naiveMedian(values.slice(index - window + 1, index + 1)));
          });
        },
      ),
    );
  });

  it('ignores one outlier that a mean would follow', () => {
    expect(rollingMedian([1, 1, 1000, 1, 1], 3)).toEqual([null, null, 1, 1, 1]);
  });
});

describe('medianWindow', () => {
  it.each([
    [5, 0],
    [10, 5],
    [60, 7],
    [100, 11],
    [500, 25],
  ])('%i sales: a median over %i', (count, window) => {
    expect(medianWindow(count)).toBe(window);
  });
});
