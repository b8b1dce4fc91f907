import { useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import { liveCollectionPath, type EventsPage } from '../../api/collection';
import { queryKeys } from '../../api/query-keys';
import { useNewRows } from '../../components/use-new-rows';
import type { EventRow } from '../../lib/answers';
import type { EventView } from '../../lib/event-view';
import { liveFit, spanThrough } from '../../lib/live-fit';
import type { TimeSpan } from '../../lib/time-span';

/**
 * A collection's new changes of hands, pushed by its live stream (use-new-rows.ts). A row
 * that belongs to the view (`liveFit`: its kinds, address, token and flags) goes to the
 * top of the loaded rows in a newest-first view whose span holds it; another sort counts
 * it ("Show N new events" loads the view again), and so does a past span (the button
 * makes the span end now: `widen`). Either way the collection's figures and charts are
 * asked again.
 */
export function useNewEvents(
  address: string,
  eventsKey: QueryKey,
  view: EventView,
  widen: (span: TimeSpan) => void,
) {
  const queryClient = useQueryClient();

  /** The rows at the top of the first page, newest first. */
  const place = (rows: EventRow[]) => {
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
    fit: (row) => liveFit(view, row),
    place,
    // The figures and charts follow (cheap: from the hourly rollup).
    follow: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.collectionOverviews(address) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.collectionAll(address, 'series') });
    },
    reload,
    // A past span shows its new rows once it ends now.
    ...(view.span !== null && {
      showFresh: () => widen(spanThrough(view.span!, Math.floor(Date.now() / 1000))),
    }),
  });
}
