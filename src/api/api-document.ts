import { queryOptions } from '@tanstack/react-query';
import type { ApiDocument, Samples } from '../lib/api-document';
import type { EventsAnswer, RankingAnswer } from '../lib/answers';
import { getAnswer, getJson } from './client';
import { queryKeys } from './query-keys';

/** The server's API document: made once by the server, it changes only with a new server. */
export const apiDocumentQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.apiDocument(),
    queryFn: ({ signal }) =>
      getAnswer<ApiDocument>('/api/openapi.json', signal, ['openapi', 'paths']),
    staleTime: Infinity,
  });

/**
 * Examples from this server's own data, for the docs page's requests: the busiest
 * collection of all time, and its newest change of hands (a token, a wallet, a
 * transaction). Whatever the index does not hold yet stays unfilled.
 */
export const apiSamplesQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.apiSamples(),
    queryFn: async ({ signal }): Promise<Samples> => {
      const ranking = (await getJson(
        '/api/collections?window=all&limit=1',
        signal,
      )) as RankingAnswer;
      const collection = ranking.collections[0]?.address;
      if (!collection) return { 'preview-page': 'holders' };
      const events = (await getJson(
        `/api/collections/${collection}/events?limit=1`,
        signal,
      )) as EventsAnswer;
      const event = events.events[0];
      return {
        collection,
        'collection-page': `${window.location.origin}/contracts/${collection}`,
        'preview-page': 'holders',
        ...(event && {
          token: event.tokenId,
          transaction: event.transactionHash,
          wallet: event.kind === 'burn' ? event.from : event.to,
        }),
      };
    },
    staleTime: 5 * 60_000,
  });

/** One example request's answer as sent: its status and its body, for reading. */
export const sampleAnswerQueryOptions = (url: string) =>
  queryOptions({
    queryKey: queryKeys.apiSampleAnswer(url),
    queryFn: async ({ signal }) => {
      const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
      const text = await response.text();
      return { status: response.status, etag: response.headers.get('etag'), text };
    },
    staleTime: 60_000,
    retry: false,
  });
