import {
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';

/** The table features every list uses: sorting over the loaded rows, nothing else. */
export const listFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
});

export type ListColumn<T extends RowData> = ColumnDef<typeof listFeatures, T>;

/** Extra per-column settings the data table reads. */
export interface ColumnMeta {
  /** Class on `th`/`td`, for widths and alignment. */
  className?: string;
}
