import { queryOptions } from '@tanstack/react-query';
import type { EventRow, TokenPageAnswer } from '../lib/answers';
import type { TokenEvent } from '../lib/token-event';
import { getAnswer } from './client';
import { queryKeys } from './query-keys';

/**
 * One token as the query API tells it (`GET /api/collections/:address/tokens/:tokenId`):
 * its whole history oldest first, a sale's two records already one row, its holder, its
 * chain of custody, and how complete and fresh the answer is. The server reads the
 * token's own list (it has the burn a contract's list lacks) before it answers.
 */
const REQUIRED = [
  'address',
  'tokenId',
  'owner',
  'minted',
  'burned',
  'events',
  'custody',
  'tokenList',
  'coverage',
] as const satisfies readonly (keyof TokenPageAnswer)[];

export const tokenPath = (address: string, tokenId: string) =>
  `/api/collections/${address}/tokens/${tokenId}`;

/** The live stream of a token's new changes of hands (Server-Sent Events, use-live-rows.ts). */
export const liveTokenPath = (address: string, tokenId: string) =>
  `/api/live/collections/${address}/tokens/${tokenId}`;

export const tokenQueryOptions = (address: string, tokenId: string) =>
  queryOptions({
    queryKey: queryKeys.token(address, tokenId),
    queryFn: ({ signal }) =>
      getAnswer<TokenPageAnswer>(tokenPath(address, tokenId), signal, REQUIRED),
    staleTime: 60_000,
  });

/**
 * A row of the answer as the event table and the export read events: the records it was
 * joined from are named by the row (`records`), not sent, and a price that is no number
 * is shown as sent.
 */
export function eventOfRow(row: EventRow): TokenEvent {
  const { records, id, tokenIdHex, priceText, ...event } = row;
  if (event.price === undefined && priceText !== undefined) event.price = priceText;
  return event;
}
