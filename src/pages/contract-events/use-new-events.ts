import { useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { liveCollectionPath, type EventsPage } from '../../api/collection';
import { queryKeys } from '../../api/query-keys';
import { useNewRows } from '../../components/use-new-rows';
import type { EventRow } from '../../lib/answers';
import type { EventView } from '../../lib/event-view';

/**
 * A collection's new changes of hands, pushed by its live stream (use-new-rows.ts). A row
 * that belongs to the view (its kinds, span, address, token and flags; a view narrowed by
 * marketplace or currency is the server's to tell, and is offered nothing) goes to the
 * top of the loaded rows in a newest-first view; another sort counts it: "Show N new
 * events" loads the view again. Either way the collection's figures and charts are asked
 * again.
 */
export function useNewEvents(address: string, eventsKey: QueryKey, view: EventView) {
  const queryClient = useQueryClient();

  // What a row says of itself; a marketplace or currency filter (a price range) is the
  // server's to apply, so such a view is offered nothing.
  const belongs = (row: EventRow) =>
    (view.kinds.length === 0 || view.kinds.includes(row.kind)) &&
    (view.wash === 'exclude'
      ? !row.washFlags?.length
      : view.wash === 'only'
        ? Boolean(row.washFlags?.length)
        : true) &&
    (view.span === null || (row.timestamp >= view.span.from && row.timestamp < view.span.to)) &&
    (view.address === null || row.from === view.address || row.to === view.address) &&
    (view.token === null || row.tokenId === view.token) &&
    view.marketplace === null &&
    view.currency === null;

  /** The rows at the top of the first page, newest first; null in another sort. */
  const place = (rows: EventRow[]) => {
    if (view.sort !== null) return null;
    let since: number | null = null;
    queryClient.setQueryData<InfiniteData<EventsPage>>(eventsKey, (data) => {
      const first = data?.pages[0];
      if (!data || !first) return data;
      since = first.items[0]?.timestamp ?? 0;
      const newest = [...rows].sort(
        (a, b) => b.timestamp - a.timestamp || Number(b.id) - Number(a.id),
      );
      const ids = new Set(newest.map((row) => row.id));
      const items = [...newest, ...first.items.filter((row) => !ids.has(row.id))];
      return { ...data, pages: [{ ...first, items }, ...data.pages.slice(1)] };
    });
    return since;
  };

  const reload = useCallback(
    () => void queryClient.resetQueries({ queryKey: queryKeys.collectionAll(address, 'events') }),
    [address, queryClient],
  );

  return useNewRows({
    path: liveCollectionPath(address),
    viewKey: JSON.stringify(eventsKey),
    belongs,
    place,
    // The figures and charts follow (cheap: from the hourly rollup).
    follow: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.collectionOverviews(address) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.collectionAll(address, 'series') });
    },
    reload,
  });
}
