import type { InfiniteData } from '@tanstack/react-query';
import type { Page } from './types';
import { startsWith } from '../lib/arrays';

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
  let last: { pages: readonly Page<T>[]; list: LoadedList<T>; seen: Set<string> } | undefined;
  return (data: InfiniteData<Page<T>, unknown> | undefined): LoadedList<T> => {
    if (!data) return EMPTY;
    const { pages } = data;
    if (last?.pages === pages) return last.list;
    const base = last && startsWith(pages, last.pages) ? last : undefined;
    // The base's key set is taken over, not copied: it always belongs to the latest answer,
    // and an answer is only ever extended while it is the latest.
    const seen = base?.seen ?? new Set<string>();
    const items = base ? base.list.items.slice() : [];
    let skipped = base?.list.skipped ?? 0;
    for (let index = base?.pages.length ?? 0; index < pages.length; index++) {
      const page = pages[index]!;
      skipped += page.skipped;
      for (const item of page.items) {
        const key = keyOf(item);
        if (seen.has(key)) continue;
        seen.add(key);
        items.push(item);
      }
    }
    const list = { items, skipped, pages: pages.length };
    last = { pages, list, seen };
    return list;
  };
}
