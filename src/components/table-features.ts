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
  /** Class on `th`/`td`, for widths and alignment. */
  className?: string;
}
