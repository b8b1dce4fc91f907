import {
  FlexRender,
  useTable,
  type Row,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useMemo,
  memo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { SortState } from '../lib/view-state';
import { isTyping } from './is-typing';
import { SortHeader } from './sort-header';
import { PHONE_QUERY, useMediaQuery } from './use-media-query';
import { listFeatures, type ColumnMeta, type ListColumn } from './table-features';

export interface DataTableProps<T extends RowData> {
  caption: string;
  rows: readonly T[];
  columns: ListColumn<T>[];
  getRowKey: (row: T) => string;
  sort: SortState | null;
  onSortChange: (sort: SortState | null) => void;
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
  /**
   * Sorts the rows itself instead of the table's row model (which calls the column's
   * sort function through a wrapper per comparison, about 2.5× slower on 50,000 rows).
   * The export uses the same function, so file and screen share one order.
   */
  sortRows?: (rows: readonly T[], sort: SortState) => readonly T[];
}

/** Default heights of a row, and of a row shown as a card on a phone (see styles.css). */
export const ROW_HEIGHT = 48;
export const CARD_HEIGHT = 200;
const OVERSCAN = 8;
const NEAR_END_ROWS = 20;

/**
 * A semantic, sortable, virtualised table. Only about a screenful of rows is in the DOM
 * however many are loaded: spacer rows above and below keep the scroll height true, so
 * the page scrolls as one document and the table stays a real `<table>`.
 */
export function DataTable<T extends RowData>(props: DataTableProps<T>) {
  const { caption, columns, getRowKey, sort, onSortChange, onRowOpen, sortRows } = props;
  const rows = useMemo(
    () => (sortRows && sort ? sortRows(props.rows, sort) : props.rows),
    [sortRows, sort, props.rows],
  );
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
      onSortChange(next[0] ?? null);
    },
    enableMultiSort: false,
    manualSorting: Boolean(sortRows),
    // Accessors never return undefined, so the per-comparison undefined check (which
    // reads every value twice) is switched off: it doubled the time of a 50,000-row sort.
    defaultColumn: { sortUndefined: false },
  });
  const tableRows = table.getRowModel().rows;

  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The table's distance from the top of the document; content above it (filters,
  // notices, status lines) changes with the rows, so it is re-read when they change.
  const rowCount = rows.length;
  useLayoutEffect(() => {
    const top = (bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
    if (Math.abs(top - scrollMargin) > 1) setScrollMargin(top);
  }, [scrollMargin, rowCount]);
  const virtualizer = useWindowVirtualizer({
    count: tableRows.length,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin,
  });
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight]);

  // j/k move a row focus through the table, Enter opens the focused row. The focus is an
  // index into the sorted rows, so it survives virtualisation (the row may not be in the DOM).
  const [focused, setFocused] = useState(-1);
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (
      event.defaultPrevented ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey ||
      isTyping(event.target)
    ) {
      return;
    }
    if ((event.key === 'j' || event.key === 'k') && tableRows.length > 0) {
      event.preventDefault();
      const next = Math.min(
        tableRows.length - 1,
        Math.max(0, focused + (event.key === 'j' ? 1 : -1)),
      );
      setFocused(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else if (event.key === 'Enter' && onRowOpen && document.activeElement === document.body) {
      const row = tableRows[focused];
      if (row) {
        event.preventDefault();
        onRowOpen(row.original);
      }
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  const paddingTop = first ? first.start - scrollMargin : 0;
  const paddingBottom = last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0;

  const { onNearEnd } = props;
  const lastIndex = last?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && lastIndex >= tableRows.length - NEAR_END_ROWS) onNearEnd();
  }, [onNearEnd, lastIndex, tableRows.length]);

  const columnCount = columns.length;
  return (
    <table className="data-table">
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
      <tbody ref={bodyRef}>
        {paddingTop > 0 && (
          <tr aria-hidden="true" className="spacer">
            <td colSpan={columnCount} style={{ height: paddingTop }} />
          </tr>
        )}
        {items.map((item) => {
          const row = tableRows[item.index];
          return row ? (
            <TableRow
              key={row.id}
              row={row}
              index={item.index}
              height={rowHeight}
              focused={item.index === focused}
            />
          ) : null;
        })}
        {paddingBottom > 0 && (
          <tr aria-hidden="true" className="spacer">
            <td colSpan={columnCount} style={{ height: paddingBottom }} />
          </tr>
        )}
      </tbody>
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

interface TableRowProps<T extends RowData> {
  row: Row<typeof listFeatures, T>;
  index: number;
  height: number;
  focused: boolean;
}

/**
 * One row, memoised: TanStack keeps row objects until the data or the order changes, so
 * while scrolling only the rows entering the window render; the rest are left alone.
 * Cells read page-wide display state (time format, tracing) through context.
 */
const TableRow = memo(function TableRow<T extends RowData>({
  row,
  index,
  height,
  focused,
}: TableRowProps<T>) {
  return (
    <tr
      style={{ height }}
      className={focused ? 'row-focused' : undefined}
      aria-current={focused ? 'true' : undefined}
      data-index={index}
    >
      {row.getAllCells().map((cell) => {
        const meta = cell.column.columnDef.meta as ColumnMeta | undefined;
        const label = cell.column.columnDef.header;
        return (
          <td
            key={cell.id}
            className={meta?.className}
            data-label={typeof label === 'string' ? label : undefined}
          >
            <FlexRender cell={cell} />
          </td>
        );
      })}
    </tr>
  );
}) as <T extends RowData>(props: TableRowProps<T>) => ReactNode;
