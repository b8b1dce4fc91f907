import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { MarketAnswer } from '../lib/answers';
import { getAnswer } from './client';
import { queryKeys } from './query-keys';

/**
 * A collection's market as the query API answers it (`GET …/market`): top sales per
 * currency, marketplaces' shares, minters and the time from mint to first sale, over the
 * whole history or a span. `search`: the span's parameters (`from=…&to=…` or nothing).
 */
export const collectionMarketQueryOptions = (address: string, search: string) =>
  queryOptions({
    queryKey: queryKeys.collectionMarket(address, search),
    queryFn: ({ signal }) =>
      getAnswer<MarketAnswer>(
        `/api/collections/${address}/market${search ? `?${search}` : ''}`,
        signal,
        ['topSales', 'marketplaces', 'minters', 'firstSale', 'coverage'],
      ),
    // The market changes only as the index grows; the page asks again when it does.
    staleTime: 60_000,
    // Another span's figures replace the last ones when they come: nothing jumps meanwhile.
    placeholderData: keepPreviousData,
  });
