import {
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';
import { createAppendingRowModel } from './appending-row-model';

/**
 * The table features every list uses: the sorting state (the rows come sorted, see
 * DataTable's `sortRows`), nothing else, and a core row model that grows with the list
 * instead of being rebuilt for every page.
 */
export const listFeatures = tableFeatures({
  rowSortingFeature,
  coreRowModel: createAppendingRowModel(),
});

export type ListColumn<T extends RowData> = ColumnDef<typeof listFeatures, T>;

/** Extra per-column settings the data table reads. */
export interface ColumnMeta {
  /** Class on `th`/`td`: alignment, and the cell's place in a phone's card. */
  className?: string;
  /** Width in rem; without it the column shares what the fixed ones leave. */
  width?: number;
  /** Width in rem a shared column needs to stay readable. */
  minWidth?: number;
  /**
   * When the table is too narrow for every column at its readable width, columns with a
   * priority give way, lowest first (see column-fit.ts); the others always stay.
   */
  priority?: number;
  /** False: the cell speaks for itself on a phone's card, without its column's name. */
  cardLabel?: boolean;
  /** What the column's figure means, when its name cannot say it: a note on its heading (not sortable). */
  note?: string;
}

/**
 * A column of one field of the row, named after it: its id, its sort value, and its class
 * in the columns' module (alignment, the cell's place on a phone's card).
 */
export function fieldColumn<T extends RowData, K extends keyof T & string>(
  field: K,
  classes: Readonly<Record<string, string>>,
  column: {
    header: string;
    cell: ListColumn<T>['cell'];
    sortDescFirst?: boolean;
    enableSorting?: boolean;
    meta?: ColumnMeta;
  },
): ListColumn<T> {
  return {
    ...column,
    id: field,
    accessorFn: (row: T) => row[field],
    meta: { className: classes[field], ...column.meta },
  };
}

/**
 * The place of a row in the server's order ("#"): not sortable, the first to give way on a
 * narrow table, no label on a phone's card.
 */
export function rankColumn<T extends RowData>(
  className: string | undefined,
  cell: ListColumn<T>['cell'],
): ListColumn<T> {
  return {
    id: 'rank',
    header: '#',
    enableSorting: false,
    meta: { className, width: 4, priority: 1, cardLabel: false },
    cell,
  };
}

/** What a cell component of a list's column is given: its row and the row's place. */
export interface RowCellProps<T> {
  row: { original: T; index: number };
}
