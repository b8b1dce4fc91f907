import { useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { liveCollectionPath, type EventsPage } from '../../api/collection';
import { queryKeys } from '../../api/query-keys';
import { useLiveRows } from '../../api/use-live-rows';
import { announce } from '../../components/announce';
import type { EventRow } from '../../lib/answers';
import type { EventView } from '../../lib/event-view';
import { formatCount } from '../../lib/format';

/**
 * New changes of hands, pushed by the server's live stream of the collection. A row that
 * belongs to the view (its kinds, span, address, token and flags; a view narrowed by
 * marketplace or currency is the server's to tell, and is offered nothing) goes to the
 * top of the loaded rows at once in a newest-first view, marked new (`freshSince`) and
 * announced; another sort counts it instead: "Show N new events" loads the view again.
 * Either way the collection's figures and charts are asked again.
 */
export function useNewEvents(address: string, eventsKey: QueryKey, view: EventView) {
  const queryClient = useQueryClient();
  const takesRows = view.sort === null;
  const [fresh, setFresh] = useState<{ key: string; count: number }>({ key: '', count: 0 });
  const [marked, setMarked] = useState<{ key: string; since: number } | null>(null);
  const key = JSON.stringify(eventsKey);

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

  const insert = (rows: EventRow[]) => {
    const top: { since?: number } = {};
    queryClient.setQueryData<InfiniteData<EventsPage>>(eventsKey, (data) => {
      const first = data?.pages[0];
      if (!data || !first) return data;
      top.since = first.items[0]?.timestamp ?? 0;
      const newest = [...rows].sort(
        (a, b) => b.timestamp - a.timestamp || Number(b.id) - Number(a.id),
      );
      const ids = new Set(newest.map((row) => row.id));
      const items = [...newest, ...first.items.filter((row) => !ids.has(row.id))];
      return { ...data, pages: [{ ...first, items }, ...data.pages.slice(1)] };
    });
    const { since } = top;
    if (since === undefined) return false;
    // Rows newer than the top row when the first of them came are marked new.
    setMarked((before) => (before?.key === key ? before : { key, since }));
    return true;
  };

  useLiveRows(liveCollectionPath(address), {
    rows: (rows) => {
      const mine = rows.filter(belongs);
      if (mine.length > 0) {
        if (takesRows && insert(mine)) {
          announce(`${formatCount(mine.length)} new event${mine.length === 1 ? '' : 's'}`);
        } else {
          setFresh((before) => ({
            key,
            count: (before.key === key ? before.count : 0) + mine.length,
          }));
        }
      }
      // The figures and charts follow (cheap: from the hourly rollup).
      void queryClient.invalidateQueries({ queryKey: queryKeys.collectionOverviews(address) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.collectionAll(address, 'series') });
    },
    reset: () =>
      void queryClient.resetQueries({ queryKey: queryKeys.collectionAll(address, 'events') }),
  });

  const show = useCallback(() => {
    setFresh({ key, count: 0 });
    void queryClient.resetQueries({ queryKey: queryKeys.collectionAll(address, 'events') });
  }, [address, key, queryClient]);

  return {
    fresh: fresh.key === key ? fresh.count : 0,
    show,
    freshSince: marked?.key === key ? marked.since : null,
  };
}
