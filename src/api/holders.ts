import { infiniteQueryOptions } from '@tanstack/react-query';
import type { Holder, HoldersAnswer } from '../lib/answers';
import { getAnswer, pagePath } from './client';
import { queryKeys } from './query-keys';
import type { ServerPage } from './use-server-list';

/**
 * A collection's holders as the query API answers them (`GET …/holders`): owners largest
 * first, paged by the server's cursor, with the figures of the whole answer (the same on
 * every page), now or as of a moment; and the link to the snapshot's file.
 */
const base = (address: string) => `/api/collections/${address}/holders`;

/** How many holders a page asks for. */
export const HOLDERS_PAGE_SIZE = 100;

/** A page of holders with what the whole answer says beside its rows. */
export interface HoldersPage extends ServerPage<Holder> {
  answer: Omit<HoldersAnswer, 'holders' | 'next'>;
}

/** `search`: the view's API parameters (`asOf=…` or nothing), without limit or cursor. */
export const collectionHoldersQueryOptions = (address: string, search: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.collectionHolders(address, `${search}&limit=${HOLDERS_PAGE_SIZE}`),
    queryFn: async ({ pageParam, signal }): Promise<HoldersPage> => {
      const { holders, next, ...answer } = await getAnswer<HoldersAnswer>(
        pagePath(base(address), search, HOLDERS_PAGE_SIZE, pageParam),
        signal,
        ['holders', 'next', 'coverage'],
      );
      return { items: holders, next, answer };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    // Holders change only as the index grows; the page asks again when it does.
    staleTime: 60_000,
  });

/** Every holder of the view in one CSV file, streamed by the server. */
export const holdersExportHref = (address: string, search: string) =>
  `${base(address)}/export${search ? `?${search}` : ''}`;
