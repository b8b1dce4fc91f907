import type { InfiniteData } from '@tanstack/react-query';
import { createGrowingFold } from '../lib/arrays';
import type { Page } from '../lib/page';

export interface LoadedList<T> {
  items: T[];
  skipped: number;
  pages: number;
}

const EMPTY: LoadedList<never> = { items: [], skipped: 0, pages: 0 };

/**
 * Flattens a list's loaded pages into one list, each item once. Pages are keyed by their
 * cursor, so a page fetched again after a failure replaces itself rather than adding to
 * the list; the key check guards against an upstream that repeats a record across pages.
 *
 * A list grows a page at a time (about 70 pages for a 100,000-event history), so the
 * flattener keeps its last answer and, when the new pages begin with exactly the pages
 * it last saw, only adds the new ones: a page then costs its own length and one copy of
 * the array, not a key check of every item loaded so far. Anything else (a refetch, a
 * reset, an older set of pages) is flattened from scratch.
 */
export function createFlattener<T>(keyOf: (item: T) => string) {
  const flatten = createGrowingFold<Page<T>, { list: LoadedList<T>; seen: Set<string> }>({
    start: () => ({ list: { items: [], skipped: 0, pages: 0 }, seen: new Set() }),
    // The earlier answer stays as it was (a render may still show it); its key set is
    // taken over, not copied: only the latest answer is kept, and only it is extended.
    resume: ({ list, seen }) => ({ list: { ...list, items: list.items.slice() }, seen }),
    add: ({ list, seen }, page, index) => {
      list.skipped += page.skipped;
      list.pages = index + 1;
      for (const item of page.items) {
        const key = keyOf(item);
        if (seen.has(key)) continue;
        seen.add(key);
        list.items.push(item);
      }
    },
  });
  return (data: InfiniteData<Page<T>, unknown> | undefined): LoadedList<T> =>
    data ? flatten(data.pages).list : EMPTY;
}
