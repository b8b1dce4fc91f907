import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { isCanonicalAddress } from '../lib/address';
import { isEventKind, type TokenEvent } from '../lib/token-event';
import { ApiError } from './api-error';
import { getJson } from './client';
import { queryKeys } from './query-keys';

/**
 * A wallet as the query API tells it (`GET /api/wallets/:address` and its events): from
 * the event index, so only collections the index holds. Answers are checked by hand, as
 * the upstream's records are (normalise.ts): a field of the wrong type is our server's
 * fault, said as an unreadable answer rather than a crash in a cell.
 */

/** A currency as the index names it: known (symbol, decimals), assumed ETH, or unknown. */
export interface WalletCurrency {
  /** Null when the sale named none (ETH assumed). */
  address: string | null;
  state: 'known' | 'assumed' | 'unknown';
  symbol?: string;
  decimals?: number;
}

/** Sales on one side (bought or sold) in one currency: never summed across currencies. */
export interface WalletTrade {
  currency: WalletCurrency;
  sales: number;
  /** Base units, exact. */
  amount: string;
}

export interface WalletCollection {
  address: string;
  name: string | null;
  symbol: string | null;
  holds: number;
  events: number;
  bought: WalletTrade[];
  sold: WalletTrade[];
  /** Unix seconds. */
  lastActivity: number;
}

export interface Wallet {
  address: string;
  collections: WalletCollection[];
  /** What the figures cover, in the server's words. */
  covers: string | null;
}

export interface WalletEventsPage {
  events: TokenEvent[];
  /** The server's keyset cursor; null at the end. */
  next: string | null;
}

/** How many changes of hands a page of the wallet's events asks for. */
export const WALLET_PAGE_SIZE = 100;

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isUnits = (value: unknown): value is string =>
  typeof value === 'string' && /^[0-9]{1,100}$/.test(value);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function invalid(): never {
  throw new ApiError('invalid_response', 'The dashboard’s server sent a wallet it could not read.');
}

function readCurrency(input: unknown): WalletCurrency {
  if (!isObject(input)) invalid();
  const { address, state, symbol, decimals } = input;
  if (address !== null && !(typeof address === 'string' && isCanonicalAddress(address))) invalid();
  if (state !== 'known' && state !== 'assumed' && state !== 'unknown') invalid();
  const currency: WalletCurrency = { address, state };
  if (typeof symbol === 'string') currency.symbol = symbol;
  if (isCount(decimals)) currency.decimals = decimals;
  return currency;
}

function readTrades(input: unknown): WalletTrade[] {
  if (!Array.isArray(input)) invalid();
  return input.map((trade: unknown) => {
    if (!isObject(trade) || !isCount(trade.sales) || !isUnits(trade.amount)) invalid();
    return { currency: readCurrency(trade.currency), sales: trade.sales, amount: trade.amount };
  });
}

export function readWallet(input: unknown): Wallet {
  if (!isObject(input) || typeof input.address !== 'string' || !Array.isArray(input.collections))
    invalid();
  const collections = input.collections.map((item: unknown): WalletCollection => {
    if (!isObject(item) || typeof item.address !== 'string' || !isCanonicalAddress(item.address))
      invalid();
    const { holds, events, lastActivity } = item;
    if (!isCount(holds) || !isCount(events) || !isCount(lastActivity)) invalid();
    return {
      address: item.address,
      name: textOrNull(item.name),
      symbol: textOrNull(item.symbol),
      holds,
      events,
      bought: readTrades(item.bought),
      sold: readTrades(item.sold),
      lastActivity,
    };
  });
  return { address: input.address, collections, covers: textOrNull(input.covers) };
}

const OPTIONAL_TEXT = [
  'contractType',
  'price',
  'quantity',
  'marketplaceName',
  'marketplaceAddress',
  'currencyAddress',
] as const;

/** A row of the index (the app's event shape plus `id`, `tokenIdHex`, `records`) as a TokenEvent. */
export function readWalletEvent(input: unknown): TokenEvent {
  if (!isObject(input)) invalid();
  const { key, eventId, kind, label, contractAddress, from, to, tokenId } = input;
  const { timestamp, transactionHash } = input;
  if (
    typeof key !== 'string' ||
    typeof eventId !== 'string' ||
    typeof kind !== 'string' ||
    !isEventKind(kind) ||
    typeof label !== 'string' ||
    typeof contractAddress !== 'string' ||
    typeof from !== 'string' ||
    typeof to !== 'string' ||
    typeof tokenId !== 'string' ||
    !/^[0-9]+$/.test(tokenId) ||
    !isCount(timestamp) ||
    typeof transactionHash !== 'string'
  )
    invalid();
  const event: TokenEvent = {
    key,
    eventId,
    kind,
    label,
    contractAddress,
    from,
    to,
    tokenId,
    timestamp,
    transactionHash,
  };
  for (const field of OPTIONAL_TEXT) {
    const value = input[field];
    if (typeof value === 'string') event[field] = value;
  }
  // A price that is no number in either format is sent as text: shown as sent.
  if (event.price === undefined && typeof input.priceText === 'string')
    event.price = input.priceText;
  return event;
}

export function readWalletEventsPage(input: unknown): WalletEventsPage {
  if (!isObject(input) || !Array.isArray(input.events)) invalid();
  const next = input.next;
  if (next !== null && typeof next !== 'string') invalid();
  return { events: input.events.map(readWalletEvent), next };
}

export const walletQueryOptions = (address: string) =>
  queryOptions({
    queryKey: queryKeys.wallet(address),
    queryFn: async ({ signal }) => readWallet(await getJson(`/api/wallets/${address}`, signal)),
    staleTime: 60_000,
  });

/** `?collection=…&limit=…&cursor=…` with only what is set. */
export function walletEventsPath(
  address: string,
  collection: string | null,
  cursor: string | null,
) {
  const params = new URLSearchParams();
  if (collection) params.set('collection', collection);
  params.set('limit', String(WALLET_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `/api/wallets/${address}/events?${params}`;
}

/**
 * The wallet's changes of hands, newest first, one page per server cursor. The server's
 * cursors never die (keyset, bound to their query), so each page's param is its cursor.
 */
export const walletEventsQueryOptions = (address: string, collection: string | null) =>
  infiniteQueryOptions({
    queryKey: queryKeys.walletEvents(address, collection),
    queryFn: async ({ pageParam, signal }) =>
      readWalletEventsPage(await getJson(walletEventsPath(address, collection, pageParam), signal)),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    staleTime: 60_000,
  });
