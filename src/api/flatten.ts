import type { InfiniteData } from '@tanstack/react-query';
import type { Page } from './types';

export interface LoadedList<T> {
  items: T[];
  skipped: number;
  pages: number;
}

/**
 * All loaded pages as one list, each item once. Pages are keyed by their cursor, so a
 * page fetched again after a failure replaces itself rather than adding to the list;
 * the key check guards against an upstream that repeats a record across pages.
 */
export function flattenPages<T>(
  data: InfiniteData<Page<T>, unknown> | undefined,
  keyOf: (item: T) => string,
): LoadedList<T> {
  if (!data) return { items: [], skipped: 0, pages: 0 };
  const seen = new Set<string>();
  const items: T[] = [];
  let skipped = 0;
  for (const page of data.pages) {
    skipped += page.skipped;
    for (const item of page.items) {
      const key = keyOf(item);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(item);
    }
  }
  return { items, skipped, pages: data.pages.length };
}
