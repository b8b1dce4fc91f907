import { queryOptions } from '@tanstack/react-query';
import type { LookupAnswer, TransactionAnswer } from '../lib/answers';
import { getAnswer } from './client';
import { queryKeys } from './query-keys';

/**
 * What the index knows a whole value to be (`GET /api/lookup/:value`): a listed
 * collection, a wallet, a transaction, a token of the collection in view; and a
 * transaction's changes of hands (`GET /api/transactions/:hash`). Both from stored rows.
 */
export const lookupPath = (value: string, collection: string | null) =>
  `/api/lookup/${value}${collection ? `?collection=${collection}` : ''}`;

export const lookupQueryOptions = (value: string, collection: string | null = null) =>
  queryOptions({
    queryKey: queryKeys.lookup(value, collection),
    queryFn: ({ signal }) =>
      getAnswer<LookupAnswer>(lookupPath(value, collection), signal, ['matches']),
    staleTime: 60_000,
  });

export const transactionQueryOptions = (hash: string) =>
  queryOptions({
    queryKey: queryKeys.transaction(hash),
    queryFn: ({ signal }) =>
      getAnswer<TransactionAnswer>(`/api/transactions/${hash}`, signal, [
        'hash',
        'events',
        'collections',
      ]),
    staleTime: 60_000,
  });
