import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { queryKeys } from '../../api/query-keys';
import type { CollectionAnswer } from '../../lib/answers';
import type { EventView } from '../../lib/event-view';
import { EVENT_KINDS, type EventKind } from '../../lib/token-event';

interface Baseline {
  key: string;
  count: number;
  newest: number | null;
}

/**
 * New events at the head of the list, where they can belong: a newest-first view that
 * reaches the present and is narrowed by nothing the figures cannot count (no address,
 * token, marketplace or currency, so no price range either). The collection's figures, polled anyway, tell how many of
 * the view's kinds came in since the rows were loaded; they are added only when the reader
 * asks, and then marked new (`freshSince`), so nothing moves under the reader meanwhile.
 */
export function useNewEvents(
  address: string,
  apiSearch: string,
  view: EventView,
  collection: CollectionAnswer | undefined,
  nowSeconds: number,
) {
  const queryClient = useQueryClient();
  const applies =
    view.sort === null &&
    view.address === null &&
    view.token === null &&
    view.marketplace === null &&
    view.currency === null &&
    view.wash !== 'only' &&
    (view.span === null || view.span.to > nowSeconds);
  const figures = collection?.figures;
  const kinds: readonly EventKind[] = view.kinds.length ? view.kinds : EVENT_KINDS;
  const count = figures ? kinds.reduce((sum, kind) => sum + figures.counts[kind], 0) : null;
  const newest = collection?.coverage.newest ?? null;

  // What the loaded rows knew: the count and newest time when the view was (re)loaded,
  // which it also is when the indexer finishes reading the history. Kept as state and set
  // during render when the view changes (React's way for state derived from a change).
  const key = `${apiSearch}|${collection?.coverage.complete ?? ''}`;
  const [baseline, setBaseline] = useState<Baseline | null>(null);
  if (count !== null && baseline?.key !== key) setBaseline({ key, count, newest });
  const [marked, setMarked] = useState<{ search: string; since: number | null } | null>(null);
  const freshSince = marked?.search === apiSearch ? marked.since : null;

  const fresh =
    applies && collection?.coverage.complete && baseline?.key === key && count !== null
      ? Math.max(0, count - baseline.count)
      : 0;

  const show = useCallback(() => {
    if (!baseline || count === null) return;
    setMarked({ search: apiSearch, since: baseline.newest });
    setBaseline({ key, count, newest });
    void queryClient.resetQueries({
      queryKey: queryKeys.collectionAll(address, 'events'),
    });
  }, [address, apiSearch, baseline, key, count, newest, queryClient]);

  return { fresh, show, freshSince };
}
