import type { Custody } from './custody';
import type { EventKind, TokenEvent } from './token-event';

/**
 * The query API's answers, as the server sends them and the browser reads them: one home
 * for both sides (the server's queries fill them, the dashboard's pages show them). Times
 * are unix seconds unless named ISO; amounts are base units as exact decimal strings.
 */

/** The columns the events of a collection or a wallet can be sorted by (`sort=-price`). */
export const EVENT_SORTS = ['time', 'price', 'token', 'kind'] as const;
export type EventSortId = (typeof EVENT_SORTS)[number];

/** The most rows one page of any list of the query API holds (`limit`). */
export const MAX_PAGE_SIZE = 500;

/** The buckets of a time series. */
export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

/**
 * Whether figures, lists and exports count sales flagged as wash trades (`wash=include`,
 * the default) or leave them out (`wash=exclude`).
 */
export const WASH_MODES = ['include', 'exclude'] as const;
export type WashMode = (typeof WASH_MODES)[number];

/** The windows collections are ranked over, in hours (null: the whole history). */
export const WINDOWS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30, all: null } as const;
export type RankingWindow = keyof typeof WINDOWS;

/** The columns collections can be ranked by (`sort=-volume`). */
export const RANKING_SORTS = ['events', 'sales', 'volume', 'holders', 'last', 'name'] as const;
export type RankingSortId = (typeof RANKING_SORTS)[number];

/**
 * A currency as figures name it: a known one with its symbol and decimals, `assumed`
 * (the marketplace named none; ETH, as the service assumes) or `unknown` (an address we
 * have no decimals for: only base units are given).
 */
export interface CurrencyRef {
  address: string | null;
  state: 'known' | 'assumed' | 'unknown';
  symbol?: string;
  decimals?: number;
}

export interface Volume {
  currency: CurrencyRef;
  sales: number;
  /** Sum of the sales' prices in base units, as sent (never multiplied by quantity). */
  volume: string;
}

export interface Overview {
  events: number;
  counts: Record<EventKind, number>;
  sales: number;
  mints: number;
  knownBurns: number;
  tokens: number;
  holders: number;
  volume: Volume[];
  marketplaces: { name: string | null; sales: number; share: number; volume: Volume[] }[];
  /** Sales flagged as wash trades (see `washFlags`), and their volume per currency. */
  washSales: number;
  washVolume: Volume[];
  /** Whether the figures above leave the flagged sales out (`wash=exclude`). */
  washExcluded: boolean;
  firstActivity: number | null;
  lastActivity: number | null;
}

export interface SeriesBucket {
  /** Unix seconds of the bucket's start. */
  start: number;
  counts: Record<EventKind, number>;
  volume: { currency: CurrencyRef; sales: number; volume: string }[];
}

export interface RankedContract {
  address: string;
  name: string | null;
  symbol: string | null;
  image: string | null;
  type: string | null;
  events: number;
  sales: number;
  volume: Volume[];
  holders: number;
  lastActivity: number | null;
  complete: boolean;
  indexedBack: number | null;
}

export interface WalkProgress {
  state: 'reading' | 'done' | 'failed' | 'stopped';
  startedAt: number;
  pages: number;
  /** Upstream pages a second over the walk so far. */
  pagesPerSecond: number;
  failure?: string;
}

/**
 * How complete and fresh an answer about one contract is: whether its whole history is
 * indexed (or back to which time), when its head was last read, whether the indexer is
 * reading it now, and, when the service could not be asked, that the answer comes from
 * stored data and why. Every answer of the query API about a contract carries it.
 */
export interface Coverage {
  complete: boolean;
  /** The oldest indexed event's time (unix seconds), or null: nothing indexed yet. */
  indexedBack: number | null;
  newest: number | null;
  /** Records of the contract's list stored. */
  records: number;
  /** When the list's head was last read from the service (ISO), or null. */
  headReadAt: string | null;
  indexing: WalkProgress | null;
  /** The service could not be asked the last time: why, and since when (ISO). */
  upstream: { failure: string; since: string } | null;
  /** A walk stopped because the service misbehaved (see the indexer). */
  fault: string | null;
  statement: string;
}

/**
 * A change of hands as the query API sends it: the app's own event shape (what the
 * dashboard's cells, prices and exports already read), with the row's id in the index,
 * the token's hex id and which records it was made of.
 */
export interface EventRow extends Omit<TokenEvent, 'records'> {
  id: string;
  tokenIdHex: string;
  /** The records joined into this row: the NFT's transfer, the marketplace's sale, or both. */
  records: 'transfer' | 'sale' | 'transfer+sale';
  /** A sale's price as sent, when it is not a number in either format. */
  priceText?: string;
  /** Why a sale looks like a wash trade (see wash-flags.ts); absent when no rule fires. */
  washFlags?: string[];
}

/** One token's whole history (oldest first) and its state: holder, minted, burned. */
export interface TokenAnswer {
  owner: string | null;
  since: number | null;
  minted: boolean;
  burned: boolean;
  events: EventRow[];
}

export interface Holder {
  owner: string;
  tokens: number;
  /** When the owner's latest token came to it (unix seconds). */
  since: number;
}

export interface WalletCollection {
  address: string;
  name: string | null;
  symbol: string | null;
  holds: number;
  events: number;
  bought: { currency: CurrencyRef; sales: number; amount: string }[];
  sold: { currency: CurrencyRef; sales: number; amount: string }[];
  lastActivity: number;
}

/** `GET /api/collections`: a page of the ranking. */
export interface RankingAnswer {
  window: RankingWindow;
  sort: string;
  collections: RankedContract[];
  next: string | null;
}

/** `GET /api/collections/:address`: what the collection is and its whole-history figures. */
export interface CollectionAnswer {
  address: string;
  name?: string | null;
  symbol?: string | null;
  image?: string | null;
  type?: string | null;
  /** Null while nothing of the collection is indexed. */
  figures: Overview | null;
  coverage: Coverage;
}

/** `GET /api/collections/:address/events` and `/api/wallets/:address/events`. */
export interface EventsAnswer {
  events: EventRow[];
  next: string | null;
  /** How the rows are ordered, in words (the price sort goes currency by currency). */
  order?: string;
  coverage?: Coverage;
}

/** `GET /api/collections/:address/series`. */
export interface SeriesAnswer {
  interval: Interval;
  buckets: SeriesBucket[];
  coverage: Coverage;
}

/** `GET /api/collections/:address/holders`. */
export interface HoldersFigures {
  totalHolders: number;
  tokensHeld: number;
  knownBurned: number;
  distribution: { range: string; holders: number }[];
  top10Share: number;
}
export interface HoldersAnswer extends HoldersFigures {
  holders: Holder[];
  next: string | null;
  asOf: number | null;
  /** What is counted, in words. */
  counted: string;
  coverage: Coverage;
}

/** `GET /api/collections/:address/tokens/:tokenId`. */
export interface TokenPageAnswer extends TokenAnswer {
  address: string;
  tokenId: string;
  custody: Custody[];
  /** Whether the token's own list (which has its burn) could be read just now. */
  tokenList: { read: true } | { read: false; failure: string };
  coverage: Coverage;
}

/** `GET /api/wallets/:address`. */
export interface WalletAnswer {
  address: string;
  collections: WalletCollection[];
  covers: string;
}
