import { flexRender, type Row, type RowData } from '@tanstack/react-table';
import {
  measureElement,
  observeWindowRect,
  useWindowVirtualizer,
  type Rect,
} from '@tanstack/react-virtual';
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
  /** The columns shown: rows render again when they change. */
  columns: readonly unknown[];
  /** Every row's height, except on a phone, where cards are measured. */
  rowHeight: number;
  /**
   * Phone layout: each row is a card of its cells, named by their columns (see
   * data-table.module.css), as tall as its content, which the virtualiser measures.
   */
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
  const { rows: tableRows, columns, rowHeight, phone, onRowOpen } = props;
  const columnCount = columns.length;
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
  // Cards share one layout, so the last one measured is the best guess for the next.
  const cardHeight = useRef<number | null>(null);
  const virtualizer = useWindowVirtualizer({
    count: tableRows.length,
    estimateSize: () => (phone ? (cardHeight.current ?? rowHeight) : rowHeight),
    measureElement: (element, entry, instance) => {
      const size = measureElement(element, entry, instance);
      cardHeight.current = size;
      return size;
    },
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
  useEffect(() => virtualizer.measure(), [virtualizer, rowHeight, phone, columns]);

  // j/k move a row focus through the table, Enter opens the focused row. The focus is an
  // index into the sorted rows, so it survives virtualisation (the row may not be in the
  // DOM); while the row is rendered it also holds the document's focus, so Enter is the
  // row's and not that of a button clicked before.
  const [focused, setFocused] = useState(-1);
  const movedByKey = useRef(false);
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (
      event.defaultPrevented ||
      event.altKey ||
      event.ctrlKey ||
      event.metaKey ||
      isTyping(event.target) ||
      inDialog(event.target)
    ) {
      return;
    }
    if ((event.key === 'j' || event.key === 'k') && tableRows.length > 0) {
      event.preventDefault();
      const next = Math.min(
        tableRows.length - 1,
        Math.max(0, focused + (event.key === 'j' ? 1 : -1)),
      );
      movedByKey.current = true;
      setFocused(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else if (event.key === 'Enter' && onRowOpen && focused >= 0) {
      const active = document.activeElement;
      const onRow = active === document.body || active === rowElement(bodyRef.current, focused);
      const row = tableRows[focused];
      if (row && onRow) {
        event.preventDefault();
        onRowOpen(row.original);
      }
    }
  });
  // After every render: the focused row may only now have scrolled into the DOM.
  useEffect(() => {
    if (!movedByKey.current) return;
    const row = rowElement(bodyRef.current, focused);
    if (row && document.activeElement !== row) row.focus({ preventScroll: true });
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
  // Before the window is measured (the first render) no row is rendered, but the spacer
  // already holds every row's height: the router's scroll restoration (Back, reload) runs
  // on that render, and a short document would cut the position it restores.
  const paddingBottom = last
    ? virtualizer.getTotalSize() - (last.end - margin)
    : virtualizer.getTotalSize();

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
            columns={columns}
            index={item.index}
            height={phone ? undefined : rowHeight}
            measure={phone ? virtualizer.measureElement : undefined}
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

/** The rendered row at `index` of the sorted rows, if it is in the DOM. */
function rowElement(body: HTMLElement | null, index: number): HTMLElement | null {
  return body?.querySelector<HTMLElement>(`:scope > tr[data-index="${index}"]`) ?? null;
}

function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog, [role="dialog"]') !== null;
}

interface TableRowProps<T extends RowData> {
  row: Row<typeof listFeatures, T>;
  columns: readonly unknown[];
  index: number;
  /** Fixed height in pixels; none for a measured card. */
  height: number | undefined;
  measure: ((element: HTMLElement | null) => void) | undefined;
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
 * phone's labels are only set on phones. `columns` is not read: a new set of columns
 * (the table grew or shrank past a column's width) renders the row again.
 */
const TableRow = memo(function TableRow<T extends RowData>({
  row,
  index,
  height,
  measure,
  labelled,
  focused,
}: TableRowProps<T>) {
  return (
    <tr
      ref={measure}
      style={height === undefined ? undefined : { height }}
      className={focused ? styles.focused : undefined}
      aria-current={focused ? 'true' : undefined}
      tabIndex={focused ? -1 : undefined}
      data-index={index}
    >
      {row.getAllCells().map((cell) => {
        const def = cell.column.columnDef;
        const meta = def.meta as ColumnMeta | undefined;
        const label =
          labelled && meta?.cardLabel !== false && typeof def.header === 'string'
            ? def.header
            : undefined;
        return (
          <td key={cell.id} className={meta?.className} data-label={label}>
            {flexRender(def.cell, cell.getContext())}
          </td>
        );
      })}
    </tr>
  );
}) as <T extends RowData>(props: TableRowProps<T>) => ReactNode;

/** Where a row in view was: its index in the sorted rows, its text and its top on screen. */
export interface RowPlace {
  index: number;
  text: string;
  top: number;
}

/** The first row in view, to put it back on the same spot after rows come in above it. */
export function rowInView(): RowPlace | null {
  for (const row of document.querySelectorAll<HTMLElement>('tbody > tr[data-index]')) {
    const top = row.getBoundingClientRect().top;
    if (top >= 0) return { index: Number(row.dataset.index), text: row.textContent ?? '', top };
  }
  return null;
}

/**
 * Scrolls the window so that the row of `place`, now as far down the list as the rows
 * added above it (or as far as before, when a filter hides them all), is where it was.
 * It is found by its text among the rendered rows, the first one at or after its old
 * index: rows carry no key in the DOM, which would cost an attribute per row scrolled in.
 * The browser's own scroll anchoring may have moved the page already, by part of the way
 * or all of it: the row's position says what is left to do.
 */
export function restoreRow(place: RowPlace): void {
  for (const row of document.querySelectorAll<HTMLElement>('tbody > tr[data-index]')) {
    if (Number(row.dataset.index) < place.index || row.textContent !== place.text) continue;
    window.scrollBy(0, row.getBoundingClientRect().top - place.top);
    return;
  }
}
