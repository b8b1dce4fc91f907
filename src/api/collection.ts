import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  CollectionAnswer,
  EventRow,
  EventsAnswer,
  Interval,
  SeriesAnswer,
  ViewFiguresAnswer,
} from '../lib/answers';
import { getAnswer, pagePath } from './client';
import { queryKeys } from './query-keys';
import type { ServerPage } from './use-server-list';

/**
 * One collection as the query API answers it: what it is with its whole-history figures
 * and coverage, its events under a view (paged by the server's cursor), its time series,
 * and the export of a view. A view travels as the API's search string (see
 * lib/event-view.ts), which is also its cache key.
 */
const base = (address: string) => `/api/collections/${address}`;

/** How often the figures are read again while the indexer reads the collection's history. */
export const INDEXING_POLL_MS = 3_000;
/** How often otherwise, for new events at the head ("N new events"). */
export const LIVE_POLL_MS = 30_000;

/** The live stream of a collection's new changes of hands (Server-Sent Events, use-live-rows.ts). */
export const liveCollectionPath = (address: string) => `/api/live/collections/${address}`;

/** `excludeWash`: the figures without the sales flagged as wash trades (`wash=exclude`). */
export const collectionQueryOptions = (address: string, excludeWash = false) =>
  queryOptions({
    queryKey: queryKeys.collection(address, excludeWash),
    queryFn: ({ signal }) =>
      getAnswer<CollectionAnswer>(`${base(address)}${excludeWash ? '?wash=exclude' : ''}`, signal, [
        'address',
        'figures',
        'coverage',
      ]),
    refetchInterval: (query) =>
      query.state.data?.coverage.complete === false ? INDEXING_POLL_MS : LIVE_POLL_MS,
    refetchIntervalInBackground: false,
    staleTime: INDEXING_POLL_MS,
  });

/** A page of events with what the whole answer says beside its rows. */
export interface EventsPage extends ServerPage<EventRow> {
  order: string | null;
  coverage: EventsAnswer['coverage'] | null;
}

/** `search`: the view's API parameters (filters and sort), without limit or cursor. */
export const collectionEventsQueryOptions = (address: string, search: string, limit: number) =>
  infiniteQueryOptions({
    queryKey: queryKeys.collectionEvents(address, `${search}&limit=${limit}`),
    queryFn: async ({ pageParam, signal }): Promise<EventsPage> => {
      const answer = await getAnswer<EventsAnswer>(
        pagePath(`${base(address)}/events`, search, limit, pageParam),
        signal,
        ['events', 'next'],
      );
      return {
        items: answer.events,
        next: answer.next,
        order: answer.order ?? null,
        coverage: answer.coverage ?? null,
      };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    // Answers change only as the index grows; the page refreshes them when it does.
    staleTime: Infinity,
    gcTime: 10 * 60_000,
  });

export const collectionSeriesQueryOptions = (address: string, search: string, interval: Interval) =>
  queryOptions({
    queryKey: queryKeys.collectionSeries(address, `${search}&interval=${interval}`),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams(search);
      params.set('interval', interval);
      return getAnswer<SeriesAnswer>(`${base(address)}/series?${params}`, signal, [
        'buckets',
        'coverage',
      ]);
    },
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });

/** A view's own figures (`search`: its filters), asked only when `enabled` (a filter is set). */
export const collectionViewFiguresQueryOptions = (
  address: string,
  search: string,
  enabled: boolean,
) =>
  queryOptions({
    queryKey: queryKeys.collectionViewFigures(address, search),
    queryFn: ({ signal }) =>
      getAnswer<ViewFiguresAnswer>(
        `${base(address)}/figures${search ? `?${search}` : ''}`,
        signal,
        ['figures', 'coverage'],
      ),
    enabled,
    staleTime: Infinity,
  });

/** The export of a view: the server streams the whole answer, named for the view. */
export function exportHref(address: string, search: string, format: 'csv' | 'json'): string {
  const params = new URLSearchParams(search);
  params.set('format', format);
  return `${base(address)}/export?${params}`;
}
