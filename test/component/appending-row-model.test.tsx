import {
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type SortingState,
} from '@tanstack/react-table';
import { renderHook } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAppendingRowModel } from '../../src/components/appending-row-model';
import { listFeatures, type ListColumn } from '../../src/components/table-features';

type Item = { key: string; value: number };
const columns: ListColumn<Item>[] = [
  {
    id: 'value',
    header: 'Value',
    accessorFn: (item) => item.value,
    sortFn: (a, b) => a.original.value - b.original.value,
  },
];

type TableProps = { data: Item[]; sorting: SortingState };
const options = ({ data, sorting }: TableProps) => ({
  columns,
  data,
  getRowId: (item: Item) => item.key,
  state: { sorting },
  enableMultiSort: false,
});

/** The table exactly as DataTable builds it, over `data` (which comes sorted). */
const useListTable = (props: TableProps) => useTable({ features: listFeatures, ...options(props) });

/**
 * The same core row model under TanStack's own sorted row model: the model is a core row
 * model any of TanStack's derived models can build on (ids, indexes, `rowsById`).
 */
const sortedFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  coreRowModel: createAppendingRowModel(),
});
const useSortedTable = (props: TableProps) =>
  useTable({ features: sortedFeatures, ...options(props) });

const items = (keys: string) => [...keys].map((key, value) => ({ key, value }));
const none: SortingState = [];

describe('the appending core row model', () => {
  it('reuses the rows of items it has built when the list only grows', () => {
    const first = items('abc');
    const { result, rerender } = renderHook(useListTable, {
      initialProps: { data: first, sorting: none },
    });
    const before = result.current.getRowModel().rows;
    const grown = [...first, { key: 'd', value: 3 }, { key: 'e', value: 4 }];
    rerender({ data: grown, sorting: none });
    const after = result.current.getRowModel().rows;
    expect(after.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    after.slice(0, 3).forEach((row, index) => expect(row).toBe(before[index]));
    expect(after[4]).toMatchObject({ index: 4, original: grown[4] });
    // The earlier model is untouched, and comes back as it was for the earlier items.
    expect(before).toHaveLength(3);
    rerender({ data: first, sorting: none });
    expect(result.current.getRowModel().rows).toBe(before);
  });

  it('builds every row again for any other change, and finds rows by id', () => {
    const first = items('abc');
    const { result, rerender } = renderHook(useListTable, {
      initialProps: { data: first, sorting: none },
    });
    const before = result.current.getRowModel().rows;
    const reordered = [first[2]!, first[0]!, first[1]!];
    rerender({ data: reordered, sorting: none });
    const after = result.current.getRowModel().rows;
    expect(after.map((row) => [row.id, row.index])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
    expect(after[1]).not.toBe(before[0]);
    expect(result.current.getRow('b').original).toBe(first[1]);
  });

  it('gives TanStack sorting what its own model would: every row, in order, by id', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 5 }), { maxLength: 6 }),
        fc.boolean(),
        (pages, desc) => {
          let data: Item[] = [];
          const { result, rerender, unmount } = renderHook(useSortedTable, {
            initialProps: { data, sorting: none },
          });
          for (const page of pages) {
            data = [...data, ...page.map((value) => ({ key: `k${data.length}-${value}`, value }))];
            rerender({ data, sorting: none });
            const rows = result.current.getRowModel().rows;
            expect(rows.map((row) => row.original)).toEqual(data);
            rows.forEach((row, index) => expect(row.index).toBe(index));
          }
          rerender({ data, sorting: [{ id: 'value', desc }] });
          const sorted = result.current.getRowModel().rows.map((row) => row.original.value);
          const expected = data.map((item) => item.value).sort((a, b) => (desc ? b - a : a - b));
          expect(sorted).toEqual(expected);
          unmount();
        },
      ),
      { numRuns: 50 },
    );
  });
});
