/**
 * The sales chart's trend line: at each sale, the median price of the last `window`
 * sales up to it. A median rather than a mean, so one wash trade at a hundred times the
 * floor does not drag the line. Kept as a sorted window updated in place (a binary search
 * to insert, one to remove), not sorted afresh for every sale.
 */

/** Where `value` goes in the sorted `list`: before the first larger element. */
function insertionPoint(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function medianOf(sorted: readonly number[]): number {
  const half = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

/**
 * The median of each run of `window` values ending at each index (in the given order);
 * null before the first full window.
 */
export function rollingMedian(values: readonly number[], window: number): (number | null)[] {
  const size = Math.max(1, Math.floor(window));
  const sorted: number[] = [];
  return values.map((value, index) => {
    sorted.splice(insertionPoint(sorted, value), 0, value);
    if (index >= size) {
      const leaving = values[index - size]!;
      // The last copy of the leaving value: equal copies are the same number.
      sorted.splice(insertionPoint(sorted, leaving) - 1, 1);
    }
    return index >= size - 1 ? medianOf(sorted) : null;
  });
}

/**
 * How many sales the line is over for `count` sales: about a tenth of them, odd so the
 * median is one sale's price, between 5 and 25; 0 (no line) under 10 sales.
 */
export function medianWindow(count: number): number {
  if (count < 10) return 0;
  const window = Math.min(25, Math.max(5, Math.round(count / 10)));
  return window % 2 === 1 ? window : window + 1;
}
