import { useTable, type RowData, type SortingState } from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import type { SortState } from '../lib/view-state';
import { fitColumns } from './column-fit';
import { Hint } from './hint';
import { SortHeader } from './sort-header';
import { PHONE_QUERY, useMediaQuery } from './use-media-query';
import { listFeatures, type ColumnMeta, type ListColumn } from './table-features';
import { remPixels, useElementWidth } from './use-element-width';
import { VirtualBody } from './virtual-body';
import styles from './data-table.module.css';

export interface DataTableProps<T extends RowData, S extends string> {
  caption: string;
  rows: readonly T[];
  /** Each sortable column's id is one of the sort ids `S`. */
  columns: ListColumn<T>[];
  getRowKey: (row: T) => string;
  sort: SortState<S> | null;
  /**
   * The order the rows are in when `sort` is null (the server's own, e.g. newest first):
   * its header shows it (`aria-sort`) and a click on it turns it round.
   */
  defaultSort?: SortState<S>;
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
  /** Widths in rem that replace some columns' own (the time column's for exact times). */
  widths?: Readonly<Record<string, number>>;
  /** Class on the table: where its cells go on a phone's card (see event-columns.module.css). */
  className?: string;
  /** Called when the reader nears the last loaded row. */
  onNearEnd?: () => void;
  /** Rendered after the last row (load-more button, skeleton rows, end note). */
  footer?: ReactNode;
  /** Enter on the focused row (after j/k) opens it, e.g. a token's history. */
  onRowOpen?: (row: T) => void;
}

/**
 * The height of a row: the virtualiser counts on it and each row is set to it, so a
 * row's content is one line (see data-table.module.css; the browser tests check that every
 * row has its height). On a phone rows are cards sized to their content and measured.
 */
export const ROW_HEIGHT = 48;

/** Table borders, left and right, in pixels: the columns share the rest. */
const BORDERS = 2;

/**
 * A semantic, sortable, virtualised table. Only about a screenful of rows is in the DOM
 * however many are loaded: spacer rows above and below keep the scroll height true, so
 * the page scrolls as one document and the table stays a real `<table>`. Its columns
 * keep readable widths at any width: when not all of them fit, the least needed give way
 * (column-fit.ts) and the table says which; on a phone every row is a card of all fields.
 */
export function DataTable<T extends RowData, S extends string>(props: DataTableProps<T, S>) {
  const { caption, columns: allColumns, getRowKey, sort, onSortChange, onRowOpen } = props;
  const { defaultSort } = props;
  const { sortRows, widths } = props;
  const rows = useMemo(() => sortRows(props.rows, sort), [sortRows, sort, props.rows]);
  const phone = useMediaQuery(PHONE_QUERY);
  const rowHeight = props.rowHeight ?? ROW_HEIGHT;
  const [wrapRef, width] = useElementWidth();
  const available = (width - BORDERS) / remPixels();
  const sized = useMemo(
    () =>
      allColumns.map((column) => {
        const meta = (column.meta ?? {}) as ColumnMeta;
        const width = (column.id ? widths?.[column.id] : undefined) ?? meta.width;
        return {
          id: column.id ?? '',
          width,
          minWidth: meta.minWidth,
          priority: meta.priority,
          column,
        };
      }),
    [allColumns, widths],
  );
  const shown = useMemo(() => fitColumns(sized, phone ? 0 : available), [sized, phone, available]);
  const columns = useMemo(() => shown.map((entry) => entry.column), [shown]);
  const widthOf = useMemo(() => new Map(shown.map((entry) => [entry.id, entry.width])), [shown]);
  const hidden = sized.filter((entry) => !shown.includes(entry));

  const shownSort = sort ?? defaultSort ?? null;
  const sorting = useMemo<SortingState>(() => (shownSort ? [shownSort] : []), [shownSort]);
  const table = useTable({
    features: listFeatures,
    columns,
    data: rows as T[],
    getRowId: (row: T) => getRowKey(row),
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      // Only sortable columns toggle, and their ids are sort ids (see `columns`).
      const chosen = (next[0] as SortState<S> | undefined) ?? null;
      const isDefault =
        chosen !== null && chosen.id === defaultSort?.id && chosen.desc === defaultSort.desc;
      onSortChange(isDefault ? null : chosen);
    },
    enableMultiSort: false,
  });
  const tableRows = table.getRowModel().rows;

  const columnCount = columns.length;
  return (
    <div ref={wrapRef}>
      {hidden.length > 0 && (
        <p className={`${styles.hiddenNote} muted small`}>
          Not shown at this width:{' '}
          {hidden.map((entry) => String(entry.column.header ?? entry.id)).join(', ')}.
        </p>
      )}
      <table className={props.className ? `${styles.table} ${props.className}` : styles.table}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const column = header.column;
                const direction = column.getIsSorted();
                const meta = column.columnDef.meta as ColumnMeta | undefined;
                const width = widthOf.get(column.id);
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={
                      column.getCanSort()
                        ? `${meta?.className ?? ''} ${styles.sortable}`.trim()
                        : meta?.className
                    }
                    style={width === undefined || phone ? undefined : { width: `${width}rem` }}
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
                    ) : meta?.note ? (
                      // Not in a sort button: a focusable note there would nest controls.
                      <Hint note={meta.note}>
                        <table.FlexRender header={header} />
                      </Hint>
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
          columns={columns}
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
    </div>
  );
}
