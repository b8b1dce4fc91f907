import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';

/** A page of any list the query API answers: its rows and the server's cursor for the next. */
export interface ServerPage<T> {
  items: T[];
  /** The server's keyset cursor; null at the end. Its cursors never die. */
  next: string | null;
}

export type ServerList<T> = ReturnType<typeof useServerList<T>>;

/**
 * The one list controller: what an infinite query of the query API has loaded, and the
 * one place that decides when its next page is fetched. Scrolling near the end asks
 * (`loadMoreAuto`) unless a page is in flight, the last one failed, or it came back
 * empty (a list the indexer is still reading at its old end: more is asked for by a
 * click, never in a loop); a click (`loadMore`) always asks, also after a failure.
 */
export function useServerList<T>(
  query: UseInfiniteQueryResult<InfiniteData<ServerPage<T>, unknown>>,
) {
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, error } =
    query;
  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);
  const lastEmpty = data?.pages.at(-1)?.items.length === 0;
  const canAutoLoad = hasNextPage && !isFetchingNextPage && !isFetchNextPageError && !lastEmpty;

  const loadMoreAuto = useCallback(() => {
    // cancelRefetch: false — a second call while a page is in flight must not restart it.
    if (canAutoLoad) void fetchNextPage({ cancelRefetch: false });
  }, [canAutoLoad, fetchNextPage]);

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return {
    items,
    pages: data?.pages.length ?? 0,
    hasMore: Boolean(hasNextPage),
    isLoadingMore: isFetchingNextPage,
    /** The last page came back empty though the list may go on (see above). */
    waiting: Boolean(hasNextPage) && lastEmpty,
    /** The error of a failed next page; the pages before it stay loaded. */
    nextPageError: isFetchNextPageError ? error : null,
    loadMoreAuto,
    loadMore,
  };
}
