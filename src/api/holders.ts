import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type {
  AlsoHoldAnswer,
  Holder,
  HolderChange,
  HoldersAnswer,
  HoldersCompareAnswer,
  HoldersOverlapAnswer,
  OverlapHolder,
} from '../lib/answers';
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

/** The collections the holders also hold most (`GET …/holders/also-hold`), now. */
export const alsoHoldQueryOptions = (address: string) =>
  queryOptions({
    queryKey: queryKeys.collectionHolders(address, 'also-hold'),
    queryFn: ({ signal }) =>
      getAnswer<AlsoHoldAnswer>(`${base(address)}/also-hold`, signal, [
        'holders',
        'collections',
        'coverage',
      ]),
    staleTime: 60_000,
  });

/** A page of the wallets holding both, with the overlap's figures beside its rows. */
export interface OverlapPage extends ServerPage<OverlapHolder> {
  answer: Omit<HoldersOverlapAnswer, 'rows' | 'next'>;
}

/** Who holds the collection and `other` (`GET …/holders/overlap/:other`), paged. */
export const overlapQueryOptions = (address: string, other: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.collectionHolders(address, `overlap/${other}`),
    queryFn: async ({ pageParam, signal }): Promise<OverlapPage> => {
      const { rows, next, ...answer } = await getAnswer<HoldersOverlapAnswer>(
        pagePath(`${base(address)}/overlap/${other}`, '', HOLDERS_PAGE_SIZE, pageParam),
        signal,
        ['rows', 'next', 'other', 'coverage'],
      );
      return { items: rows, next, answer };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    staleTime: 60_000,
  });

/** A page of the holders whose count changed, with the comparison's figures beside it. */
export interface ComparePage extends ServerPage<HolderChange> {
  answer: Omit<HoldersCompareAnswer, 'changes' | 'next'>;
}

/** The holders at two moments (`GET …/holders/compare`), `search` its `from` and `to`. */
export const compareQueryOptions = (address: string, search: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.collectionHolders(address, `compare?${search}`),
    queryFn: async ({ pageParam, signal }): Promise<ComparePage> => {
      const { changes, next, ...answer } = await getAnswer<HoldersCompareAnswer>(
        pagePath(`${base(address)}/compare`, search, HOLDERS_PAGE_SIZE, pageParam),
        signal,
        ['changes', 'next', 'figures', 'changed', 'coverage'],
      );
      return { items: changes, next, answer };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    staleTime: 60_000,
  });

/** The files of the views beside the holders. */
export const alsoHoldExportHref = (address: string) => `${base(address)}/also-hold/export`;
export const overlapExportHref = (address: string, other: string) =>
  `${base(address)}/overlap/${other}/export`;
export function compareExportHref(address: string, search: string, part: 'holders' | 'figures') {
  const params = new URLSearchParams(search);
  if (part === 'figures') params.set('part', 'figures');
  const text = params.toString();
  return `${base(address)}/compare/export${text ? `?${text}` : ''}`;
}
