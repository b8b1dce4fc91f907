import type { InfiniteData } from '@tanstack/react-query';
import { createGrowingFold } from '../lib/arrays';
import type { Page } from '../lib/page';
import type { PageParam } from './page-param';

/** What the flattener needs to know of a list's items (see list-shapes.ts). */
export interface ListShape<T> {
  /** Unique per record. */
  keyOf(item: T): string;
  /**
   * For a list in time order, newest first (a contract's events): an item's time. Rows
   * then wait for their twin at the end of a walk's pages (see below), and a list read
   * again from its head skips what is newer than the rows it had.
   */
  timeOf?(item: T): number;
  /** The key the two records of one row share (a sale and its transfer twin); null when alone. */
  pairOf?(item: T): string | null;
  /** The row of two records with one pair key, or null when they are not each other's half. */
  join?(a: T, b: T): T | null;
}

export interface LoadedList<T> {
  /** One per row: records joined where two make one row, each record once. */
  items: T[];
  skipped: number;
  pages: number;
  /**
   * While the list is read again from its head (its cursor died, or its end was not
   * sure): how many of the records read before have been met again, of how many.
   */
  rewalk: { met: number; of: number } | null;
  /** The last page had no cursor but was full: the service may have more. */
  endUnsure: boolean;
}

const EMPTY: LoadedList<never> = {
  items: [],
  skipped: 0,
  pages: 0,
  rewalk: null,
  endUnsure: false,
};

interface State<T> {
  list: LoadedList<T>;
  /** Every row so far; the first `shown` are the list's items, the rest wait for a twin. */
  rows: T[];
  shown: number;
  /** Keys of every record taken. */
  seen: Set<string>;
  /** Rows of one record waiting for their twin, by pair key. */
  open: Map<string, number>;
  /** While a newest-first list is read again: the time of the last row before; newer is skipped. */
  after: number | null;
  /** While a list is read again: its rows before; one more ends the reading again. */
  rowsBefore: number;
}

function startState<T>(): State<T> {
  return {
    list: { ...EMPTY, items: [] },
    rows: [],
    shown: 0,
    seen: new Set(),
    open: new Map(),
    after: null,
    rowsBefore: 0,
  };
}

/** Takes one record: skipped when taken before, joined into its twin's row, or a new row. */
function take<T>(shape: ListShape<T>, state: State<T>, item: T): void {
  const key = shape.keyOf(item);
  const { rewalk } = state.list;
  if (state.seen.has(key)) {
    if (rewalk) rewalk.met += 1;
    return;
  }
  if (state.after !== null && shape.timeOf) {
    const time = shape.timeOf(item);
    // Newer than where the list had got to: arrived at the head since ("N new events").
    if (time > state.after) return;
    if (time < state.after) state.after = null;
  }
  state.seen.add(key);
  const pair = shape.pairOf?.(item) ?? null;
  if (pair !== null) {
    const at = state.open.get(pair);
    const joined = at === undefined ? null : (shape.join?.(state.rows[at]!, item) ?? null);
    if (joined) {
      state.rows[at!] = joined;
      state.open.delete(pair);
      return;
    }
    state.open.set(pair, state.rows.length);
  }
  state.rows.push(item);
}

/**
 * How many rows can be shown once a page is taken: all of them, except while a
 * newest-first list is walked to its end with more pages to come ("Load full history"):
 * then the rows of the last time that still wait for a twin wait with it (twins share
 * their time, so the twin of such a row can only be on the next page). Shown rows then
 * never change, so the list only grows at its end and what folds over it (the table's
 * rows, the chart's counts) only adds, page after page. Elsewhere (browsing, or a
 * token's list in no order) a row shown may change into the row joined with its twin
 * when the twin arrives: a few rows are built again, and nothing is ever counted twice.
 */
function shownRows<T>(shape: ListShape<T>, state: State<T>, walkingOn: boolean): number {
  const { rows, shown, open } = state;
  if (!walkingOn || !shape.timeOf || !shape.pairOf || rows.length === 0) return rows.length;
  const last = shape.timeOf(rows[rows.length - 1]!);
  let first = rows.length;
  for (let index = rows.length - 1; index >= shown; index--) {
    const row = rows[index]!;
    if (shape.timeOf(row) !== last) break;
    const pair = shape.pairOf(row);
    if (pair !== null && open.get(pair) === index) first = index;
  }
  return first;
}

/**
 * Flattens a list's loaded pages into its rows, each record once. Pages are keyed by
 * their cursor, so a page fetched again after a failure replaces itself rather than adding
 * to the list; the key check guards against an upstream that repeats a record across
 * pages, and skips the rows met again when a list is read again from its head (a page
 * after the first asked for with no cursor, see page-param.ts).
 *
 * A list grows a page at a time (about 70 pages for a 100,000-event history), so the
 * flattener keeps its last answer and, when the new pages begin with exactly the pages
 * it last saw, only adds the new ones: a page then costs its own length and one copy of
 * the array, not a key check of every item loaded so far. Anything else (a refetch, a
 * reset, an older set of pages) is flattened from scratch.
 */
export function createFlattener<T>(shape: ListShape<T>) {
  let params: readonly unknown[] = [];
  const flatten = createGrowingFold<Page<T>, State<T>>({
    start: startState,
    // Only the latest answer is kept and extended, so its rows and key sets are taken
    // over, not copied; the earlier answer's items are a copy of their own.
    resume: (earlier) => ({
      ...earlier,
      list: { ...earlier.list, rewalk: earlier.list.rewalk && { ...earlier.list.rewalk } },
    }),
    add: (state, page, index) => {
      const param = params[index] as PageParam | undefined;
      if (index > 0 && param?.cursor === null) {
        // Read again from the head: skip what was loaded, and what is newer than it.
        const last = state.rows[state.rows.length - 1];
        state.list.rewalk = { met: 0, of: state.seen.size };
        state.rowsBefore = state.rows.length;
        state.after = last !== undefined && shape.timeOf ? shape.timeOf(last) : null;
      }
      for (const item of page.items) take(shape, state, item);
      const { rewalk } = state.list;
      // Past the rows it had once it has a new one: browsing then goes on as before.
      if (rewalk && state.rows.length > state.rowsBefore) state.list.rewalk = null;
      state.shown = shownRows(shape, state, page.cursor !== null && param?.readAhead === true);
      state.list.items = state.rows.slice(0, state.shown);
      state.list.skipped += page.skipped;
      state.list.pages = index + 1;
      state.list.endUnsure = page.cursor === null && page.full === true;
    },
  });
  return (data: InfiniteData<Page<T>, unknown> | undefined): LoadedList<T> => {
    if (!data) return EMPTY;
    params = data.pageParams;
    return flatten(data.pages).list;
  };
}

/** The rows of one page taken alone (the newest page polled for new events). */
export function rowsOf<T>(shape: ListShape<T>, items: readonly T[]): T[] {
  const state = startState<T>();
  for (const item of items) take(shape, state, item);
  return state.rows;
}
