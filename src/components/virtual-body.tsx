import { flexRender, type Row, type RowData } from '@tanstack/react-table';
import { observeWindowRect, useWindowVirtualizer, type Rect } from '@tanstack/react-virtual';
import {
  memo,
  useEffect,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { isTyping } from './is-typing';
import type { ColumnMeta, listFeatures } from './table-features';
import styles from './data-table.module.css';

const OVERSCAN = 1;
const NEAR_END_ROWS = 20;

interface VirtualBodyProps<T extends RowData> {
  /** The table's rows in display order. */
  rows: Row<typeof listFeatures, T>[];
  columnCount: number;
  rowHeight: number;
  /** Phone layout: cells carry their column's name (see data-table.module.css). */
  phone: boolean;
  onNearEnd?: () => void;
  onRowOpen?: (row: T) => void;
}

/**
 * The table body: only about a screenful of rows, between spacer rows that keep the
 * scroll height true. It holds the window virtualizer, so a scroll frame re-renders this
 * body alone, not the table's header or its row model. One row of overscan (TanStack's
 * default): a scrollbar drag replaces every row of the window each frame, and each
 * extra row is rendered, styled and laid out for nothing.
 */
export function VirtualBody<T extends RowData>(props: VirtualBodyProps<T>) {
  const { rows: tableRows, columnCount, rowHeight, phone, onRowOpen } = props;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const [covered, setCovered] = useState(0);
  // The table's distance from the top of the document; content above it (filters,
  // notices, status lines) changes with the rows, so it is re-read when they change.
  // With it, how much of the window's top the sticky header covers (see stickyCover).
  const rowCount = tableRows.length;
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const top = body.getBoundingClientRect().top + window.scrollY;
    if (Math.abs(top - scrollMargin) > 1) setScrollMargin(top);
    const cover = stickyCover(body);
    if (cover !== covered) setCovered(cover);
  }, [scrollMargin, covered, rowCount, phone]);
  // Rows are shown in the window below the sticky header: to the virtualizer the window
  // is that much shorter and the rows start that much higher. Rows scrolled behind the
  // header are not rendered, and scrolling to a row (j/k) stops below the header.
  const coveredRef = useRef(covered);
  const rectListener = useRef<((rect: Rect) => void) | null>(null);
  const virtualizer = useWindowVirtualizer({
    count: tableRows.length,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin: scrollMargin - covered,
    observeElementRect: (instance, onRect) => {
      rectListener.current = (rect) =>
        onRect({ width: rect.width, height: Math.max(0, rect.height - coveredRef.current) });
      return observeWindowRect(instance, (rect) => rectListener.current?.(rect));
    },
  });
  useLayoutEffect(() => {
    coveredRef.current = covered;
    rectListener.current?.({ width: window.innerWidth, height: window.innerHeight });
  }, [covered]);
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
  const margin = scrollMargin - covered;
  const paddingTop = first ? first.start - margin : 0;
  const paddingBottom = last ? virtualizer.getTotalSize() - (last.end - margin) : 0;

  const { onNearEnd } = props;
  const lastIndex = last?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && lastIndex >= tableRows.length - NEAR_END_ROWS) onNearEnd();
  }, [onNearEnd, lastIndex, tableRows.length]);

  return (
    <tbody ref={bodyRef}>
      {paddingTop > 0 && (
        <tr aria-hidden="true" className={styles.spacer}>
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
            labelled={phone}
            focused={item.index === focused}
          />
        ) : null;
      })}
      {paddingBottom > 0 && (
        <tr aria-hidden="true" className={styles.spacer}>
          <td colSpan={columnCount} style={{ height: paddingBottom }} />
        </tr>
      )}
    </tbody>
  );
}

/**
 * How much of the window's top is hidden behind the table's sticky header (and the page
 * header above it, which the table's header sticks below): the sticky box's `top` plus
 * its height, or nothing when the header does not stick (the phone layout).
 */
function stickyCover(body: HTMLTableSectionElement): number {
  const head = (body.parentElement as HTMLTableElement | null)?.tHead;
  const row = head?.rows[0];
  for (const box of [head, row, row?.cells[0]]) {
    if (!box) continue;
    const style = getComputedStyle(box);
    if (style.position === 'sticky') {
      return Math.round((parseFloat(style.top) || 0) + box.getBoundingClientRect().height);
    }
  }
  return 0;
}

interface TableRowProps<T extends RowData> {
  row: Row<typeof listFeatures, T>;
  index: number;
  height: number;
  /** Cells carry their column's name for the phone's card layout (see data-table.module.css). */
  labelled: boolean;
  focused: boolean;
}

/**
 * One row, memoised: TanStack keeps row objects until the data or the order changes, so
 * while scrolling only the rows entering the window render; the rest are left alone.
 * Cells read page-wide display state (time format, tracing) through context. A fast
 * scroll replaces every row of the window each frame, so a row is kept lean: cells are
 * rendered by calling their renderer (no `FlexRender` component per cell), and the
 * phone's labels are only set on phones.
 */
const TableRow = memo(function TableRow<T extends RowData>({
  row,
  index,
  height,
  labelled,
  focused,
}: TableRowProps<T>) {
  return (
    <tr
      style={{ height }}
      className={focused ? styles.focused : undefined}
      aria-current={focused ? 'true' : undefined}
      data-index={index}
    >
      {row.getAllCells().map((cell) => {
        const def = cell.column.columnDef;
        const meta = def.meta as ColumnMeta | undefined;
        return (
          <td
            key={cell.id}
            className={meta?.className}
            data-label={labelled && typeof def.header === 'string' ? def.header : undefined}
          >
            {flexRender(def.cell, cell.getContext())}
          </td>
        );
      })}
    </tr>
  );
}) as <T extends RowData>(props: TableRowProps<T>) => ReactNode;
