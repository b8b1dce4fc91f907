import { useTable, type RowData, type SortingState } from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import type { SortState } from '../lib/view-state';
import { SortHeader } from './sort-header';
import { PHONE_QUERY, useMediaQuery } from './use-media-query';
import { listFeatures, type ColumnMeta, type ListColumn } from './table-features';
import { VirtualBody } from './virtual-body';
import styles from './data-table.module.css';

export interface DataTableProps<T extends RowData, S extends string> {
  caption: string;
  rows: readonly T[];
  /** Each sortable column's id is one of the sort ids `S`. */
  columns: ListColumn<T>[];
  getRowKey: (row: T) => string;
  sort: SortState<S> | null;
  onSortChange: (sort: SortState<S> | null) => void;
  /**
   * Puts the rows in the order of `sort`: the table's one way of sorting. TanStack Table
   * keeps the sorting state and its headers; its own sorted row model is left out (it
   * called a column's sort function through a wrapper per comparison, about 2.5× slower
   * on 50,000 rows), and the export sorts with the same function, so file and screen
   * share one order.
   */
  sortRows: (rows: readonly T[], sort: SortState<S> | null) => readonly T[];
  /** Fixed row height in pixels: rows are virtualised and must not jump. */
  rowHeight?: number;
  /** Called when the reader nears the last loaded row. */
  onNearEnd?: () => void;
  /** Rendered after the last row (load-more button, skeleton rows, end note). */
  footer?: ReactNode;
  /** Enter on the focused row (after j/k) opens it, e.g. a token's history. */
  onRowOpen?: (row: T) => void;
  /** Card height on phones, where each row is shown as a card. */
  cardHeight?: number;
}

/**
 * Default heights of a row, and of a row shown as a card on a phone: the virtualiser counts
 * on them and each row is set to its height, so a card's lines must fit it (see
 * data-table.module.css; the browser tests check that every row has its height and every
 * card's content fits).
 */
export const ROW_HEIGHT = 48;
export const CARD_HEIGHT = 200;

/**
 * A semantic, sortable, virtualised table. Only about a screenful of rows is in the DOM
 * however many are loaded: spacer rows above and below keep the scroll height true, so
 * the page scrolls as one document and the table stays a real `<table>`.
 */
export function DataTable<T extends RowData, S extends string>(props: DataTableProps<T, S>) {
  const { caption, columns, getRowKey, sort, onSortChange, onRowOpen, sortRows } = props;
  const rows = useMemo(() => sortRows(props.rows, sort), [sortRows, sort, props.rows]);
  const phone = useMediaQuery(PHONE_QUERY);
  const rowHeight = phone ? (props.cardHeight ?? CARD_HEIGHT) : (props.rowHeight ?? ROW_HEIGHT);
  const sorting = useMemo<SortingState>(() => (sort ? [sort] : []), [sort]);
  const table = useTable({
    features: listFeatures,
    columns,
    data: rows as T[],
    getRowId: (row: T) => getRowKey(row),
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      // Only sortable columns toggle, and their ids are sort ids (see `columns`).
      onSortChange((next[0] as SortState<S> | undefined) ?? null);
    },
    enableMultiSort: false,
  });
  const tableRows = table.getRowModel().rows;

  const columnCount = columns.length;
  return (
    <table className={styles.table}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const column = header.column;
              const direction = column.getIsSorted();
              const meta = column.columnDef.meta as ColumnMeta | undefined;
              return (
                <th
                  key={header.id}
                  scope="col"
                  className={meta?.className}
                  aria-sort={
                    direction === 'asc'
                      ? 'ascending'
                      : direction === 'desc'
                        ? 'descending'
                        : undefined
                  }
                >
                  {column.getCanSort() ? (
                    <SortHeader
                      label={<table.FlexRender header={header} />}
                      direction={direction}
                      onToggle={() => column.toggleSorting()}
                    />
                  ) : (
                    <table.FlexRender header={header} />
                  )}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <VirtualBody
        rows={tableRows}
        columnCount={columnCount}
        rowHeight={rowHeight}
        phone={phone}
        onNearEnd={props.onNearEnd}
        onRowOpen={onRowOpen}
      />
      {props.footer && (
        <tfoot>
          <tr>
            <td colSpan={columnCount}>{props.footer}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
