import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitColumns, type ColumnFit } from '../../../src/components/column-fit';

const columns: ColumnFit[] = [
  { id: 'kind', width: 6 },
  { id: 'token', width: 7 },
  { id: 'from', minWidth: 8 },
  { id: 'to', minWidth: 8 },
  { id: 'time', width: 9 },
  { id: 'price', width: 9, priority: 2 },
  { id: 'tx', width: 10, priority: 1 },
];
const ids = (shown: ColumnFit[]) => shown.map((column) => column.id);

describe('fitColumns', () => {
  it('shows every column when they fit, or when the width is not known', () => {
    expect(ids(fitColumns(columns, 57))).toEqual(ids(columns));
    expect(ids(fitColumns(columns, 0))).toEqual(ids(columns));
  });

  it('lets the lowest priority give way first, then the next', () => {
    expect(ids(fitColumns(columns, 56))).toEqual(['kind', 'token', 'from', 'to', 'time', 'price']);
    expect(ids(fitColumns(columns, 47))).toEqual(['kind', 'token', 'from', 'to', 'time', 'price']);
    expect(ids(fitColumns(columns, 46))).toEqual(['kind', 'token', 'from', 'to', 'time']);
    // Columns without a priority stay, even when they do not fit.
    expect(ids(fitColumns(columns, 10))).toEqual(['kind', 'token', 'from', 'to', 'time']);
  });

  it('never hides a column that fits, and what it shows fits whenever it can', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), (available) => {
        const shown = fitColumns(columns, available);
        const width = shown.reduce((sum, c) => sum + (c.width ?? c.minWidth ?? 0), 0);
        const mandatory = columns.filter((c) => c.priority === undefined);
        const floor = mandatory.reduce((sum, c) => sum + (c.width ?? c.minWidth ?? 0), 0);
        if (available >= floor) expect(width).toBeLessThanOrEqual(available);
        // Whatever is hidden was needed to fit: showing one more would not fit.
        for (const column of columns.filter((c) => !shown.includes(c))) {
          expect(width + (column.width ?? 0)).toBeGreaterThan(available);
        }
        for (const column of mandatory) expect(shown).toContain(column);
      }),
    );
  });
});
