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
 * the default), leave them out (`wash=exclude`) or count them alone (`wash=only`, the
 * flagged sales to look at one by one).
 */
export const WASH_MODES = ['include', 'exclude', 'only'] as const;
export type WashMode = (typeof WASH_MODES)[number];

/** The windows collections are ranked over, in hours (null: the whole history). */
export const WINDOWS = { '24h': 24, '7d': 24 * 7, '30d': 24 * 30, all: null } as const;
export type RankingWindow = keyof typeof WINDOWS;

/** The columns collections can be ranked by (`sort=-volume`). */
export const RANKING_SORTS = ['events', 'sales', 'volume', 'holders', 'last', 'name'] as const;
export type RankingSortId = (typeof RANKING_SORTS)[number];

/**
 * A currency as figures name it: a known one with its symbol and decimals, or `unknown`
 * (an address we have no decimals for: only base units are given). Sales that named no
 * currency are in ETH's figures (`saleCurrency` in price.ts).
 */
export interface CurrencyRef {
  address: string;
  state: 'known' | 'unknown';
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
  /** Sales that named no currency: counted as ETH, assumed (shown "ETH*"). */
  assumedSales: number;
  firstActivity: number | null;
  lastActivity: number | null;
}

/**
 * A view's own figures: the events its filters keep (`GET /api/collections/:address/figures`
 * takes the events' filters), beside the whole history's.
 */
export interface ViewFigures {
  events: number;
  counts: Record<EventKind, number>;
  sales: number;
  /** Sales with a readable price: the rows a price sort lists. */
  priced: number;
  volume: Volume[];
  /** The flagged sales among them, and their volume per currency. */
  washSales: number;
  washVolume: Volume[];
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
  /** Sales flagged as wash trades in the window (counted whether or not left out). */
  washSales: number;
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
  /**
   * While the contract's first read is stored in the record log alone and its index built
   * from it in steps: how many of `records` the index holds (its figures count those).
   * Null otherwise.
   */
  catchingUp: number | null;
  /** When the list's head was last read from the service (ISO), or null. */
  headReadAt: string | null;
  indexing: WalkProgress | null;
  /** The service could not be asked the last time: why, and since when (ISO). */
  upstream: { failure: string; since: string } | null;
  /** Reading the list was stopped because the service misbehaved (see the record log). */
  fault: string | null;
  /** When the verification pass last read the whole list again (ISO), or null. */
  verifiedAt: string | null;
  /** Records the service no longer lists: kept in the log, left out of every figure. */
  removed: number;
  /**
   * Read from a replica this many seconds behind the primary (past the server's
   * `REPLICA_MAX_LAG_SECONDS`): its newest changes may be missing. Null otherwise.
   */
  replicaLagSeconds: number | null;
  /** Faults of the whole server (a refused key, a full disk…), in words. */
  faults: string[];
  statement: string;
}

/** What an answer read from a lagging replica says, in coverage and beside server faults. */
export const replicaLagNote = (seconds: number) =>
  `Read from a replica ${seconds} s behind the primary: the newest changes may not show yet.`;

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
  /**
   * When the owner got the earliest of the tokens it holds (each token's latest change, to
   * it): it has held at least one without a break since (unix seconds).
   */
  since: number;
}

/** What a holder's "since" is, in words: its column's note and the holders answer's. */
export const HOLDER_SINCE_NOTE =
  'Since: when the holder got the earliest of the tokens it holds now (a token sold and bought back counts from its return), so it has held at least one without a break from then on.';

/** Sales on one side (bought or sold) in one currency: a count and the sum of their prices. */
export interface CurrencyTrades {
  currency: CurrencyRef;
  sales: number;
  /** Base units, the prices as sent summed (a sale without a readable price adds nothing). */
  amount: string;
}

export interface WalletCollection {
  address: string;
  name: string | null;
  symbol: string | null;
  holds: number;
  events: number;
  bought: CurrencyTrades[];
  sold: CurrencyTrades[];
  /** Its sales, on either side, that the rules flag as possible wash trades. */
  flaggedSales: number;
  /** Its realised result per currency, as the wallet-in-collection answer gives it. */
  results: RealisedResult[];
  lastActivity: number;
}

/** The intervals a wallet's holdings over time are counted in. */
export const HELD_INTERVALS = ['day', 'week', 'month'] as const;
export type HeldInterval = (typeof HELD_INTERVALS)[number];

/**
 * The realised result in one currency: the tokens the wallet bought and later sold, both
 * in this currency (custody's `result`), what they cost, what they brought and the
 * difference (signed base units), how many were flips (held under a day), and how many
 * were bought or sold by a sale naming no currency (ETH assumed: "ETH*").
 */
export interface RealisedResult {
  currency: CurrencyRef;
  tokens: number;
  cost: string;
  proceeds: string;
  result: string;
  flips: number;
  assumed: number;
}

/** A wallet the wallet traded with: changes of hands between them, by how. */
export interface Counterparty {
  address: string;
  changes: number;
  /** Sales in which the wallet bought from it / sold to it. */
  boughtFrom: number;
  soldTo: number;
  /** Changes without a sale: from it to the wallet / from the wallet to it. */
  receivedFrom: number;
  sentTo: number;
}

/** A token the wallet holds now: since when and how it came. */
export interface HeldToken {
  tokenId: string;
  tokenIdHex: string;
  since: number;
  how: 'minted' | 'bought' | 'received';
}

/** `GET /api/wallets/:address/collections/:contract`: one wallet inside one collection. */
export interface WalletInCollectionAnswer {
  address: string;
  collection: { address: string; name: string | null; symbol: string | null };
  interval: HeldInterval;
  /** Tokens held at the end of each bucket (`start` its start), from the first change's to now's. */
  held: { start: number; tokens: number }[];
  holdsNow: number;
  /** Changes of hands to or from the wallet in the collection. */
  changes: number;
  firstActivity: number | null;
  lastActivity: number | null;
  counts: {
    mintsReceived: number;
    bought: number;
    sold: number;
    transfersIn: number;
    transfersOut: number;
    burned: number;
  };
  bought: CurrencyTrades[];
  sold: CurrencyTrades[];
  /** Per currency, over tokens bought and later sold in that one currency. */
  results: RealisedResult[];
  flips: number;
  /** Sales of tokens that came by mint or without a price: their cost is unknown, not in `results`. */
  unknownCost: CurrencyTrades[];
  /** Tokens bought in one currency and sold in another: no result (amounts never compared). */
  crossCurrency: number;
  /** The ten it traded with most, and how many there were in all. */
  counterparties: Counterparty[];
  counterpartyCount: number;
  /** The most recently acquired of the tokens held now (`holdsNow` says how many in all). */
  heldTokens: HeldToken[];
  /** What the figures count, in words. */
  counted: string;
  coverage: Coverage;
}

/** `GET /api/collections`: a page of the ranking. */
export interface RankingAnswer {
  window: RankingWindow;
  sort: string;
  collections: RankedContract[];
  next: string | null;
  /** Collections (matching the search) with activity in the window. */
  active: number;
  /** Their newest activity (unix seconds), in the window or not; null: none at all. */
  newest: number | null;
  /** When none is active: the shortest window that holds the newest activity. */
  nearest: RankingWindow | null;
  /** Sales flagged as wash trades in the window, over every collection matching. */
  washSales: number;
  /** Whether the figures leave the flagged sales out (`wash=exclude`). */
  washExcluded: boolean;
  /**
   * Faults of the whole server: why nothing may be fresh (a refused key, a full disk…), and
   * the replica note when the answer was read from a lagging replica.
   */
  faults: string[];
  /** As a collection's coverage says it: read from a replica this far behind, or null. */
  replicaLagSeconds: number | null;
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

/** `GET /api/collections/:address/figures`: null while nothing is indexed. */
export interface ViewFiguresAnswer {
  figures: ViewFigures | null;
  coverage: Coverage;
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

/** A collection as another answer names it. */
export interface CollectionRef {
  address: string;
  name: string | null;
  symbol: string | null;
}

/** `GET /api/collections/:address/holders/also-hold`: one collection its holders also hold. */
export interface AlsoHeld extends CollectionRef {
  /** Holders of the collection asked about who hold this one too. */
  inCommon: number;
  /** `inCommon` as a share of the collection asked about's holders. */
  share: number;
  /** This collection's own holders, and `inCommon` as a share of them. */
  holders: number;
  theirShare: number;
  /** Tokens of this collection the holders in common hold. */
  tokens: number;
}
export interface AlsoHoldAnswer {
  /** The collection's holders now. */
  holders: number;
  collections: AlsoHeld[];
  counted: string;
  coverage: Coverage;
}

/** `GET /api/collections/:address/holders/overlap/:other`: one wallet that holds both. */
export interface OverlapHolder {
  owner: string;
  /** Tokens of the collection asked about, and of the other. */
  tokens: number;
  otherTokens: number;
}
export interface HoldersOverlapAnswer {
  other: CollectionRef;
  holders: number;
  otherHolders: number;
  inCommon: number;
  /** `inCommon` as a share of each collection's holders. */
  share: number;
  otherShare: number;
  rows: OverlapHolder[];
  next: string | null;
  counted: string;
  coverage: Coverage;
  otherCoverage: Coverage;
}

/** How a holder's count went from one moment to the other. */
export const HOLDER_CHANGES = ['joined', 'left', 'grew', 'shrank'] as const;
export type HolderChangeKind = (typeof HOLDER_CHANGES)[number];

/** `GET /api/collections/:address/holders/compare`: one holder whose count changed. */
export interface HolderChange {
  owner: string;
  /** Tokens held at `from` and at `to` (0: none). */
  from: number;
  to: number;
  change: HolderChangeKind;
}
/** A collection at one moment: its holders' figures and its activity up to then. */
export interface MomentFigures extends HoldersFigures {
  activity: ViewFigures;
}
export interface HoldersCompareAnswer {
  /** The two moments (unix seconds; every change of hands at or before each counts). */
  from: number;
  to: number;
  /** `to` is the moment of the answer: no `to` was asked. */
  toNow: boolean;
  figures: { from: MomentFigures; to: MomentFigures };
  /** Holders per kind of change, and those whose count stayed. */
  changed: Record<HolderChangeKind, number> & { stayed: number };
  /** The holders whose count changed, the largest change first (of `change` alone if asked). */
  changes: HolderChange[];
  next: string | null;
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
  /**
   * Faults of the whole server: why nothing may be fresh (a refused key, a full disk…), and
   * the replica note when the answer was read from a lagging replica.
   */
  faults: string[];
  /** As a collection's coverage says it: read from a replica this far behind, or null. */
  replicaLagSeconds: number | null;
}

/** One of a currency's highest sales (`GET …/market`). */
export interface MarketSale {
  id: string;
  tokenId: string;
  tokenIdHex: string;
  /** Base units of the group's currency. */
  price: string;
  /** Who held the token before the sale and after it. */
  seller: string;
  buyer: string;
  timestamp: number;
  marketplace: string | null;
  transactionHash: string;
  /** The sale named no currency: the group's, ETH, is assumed (shown "ETH*"). */
  currencyAssumed?: true;
}

/** A volume in one currency with its share of all the span's volume in that currency. */
export interface MarketVolume extends Volume {
  share: number;
}

/**
 * Of the wallets a mint went to, those holding a token of the collection now; of the
 * tokens minted, those held now by the wallet their mint went to.
 */
export interface MintersFigures {
  minters: number;
  holding: number;
  holdingShare: number;
  minted: number;
  keptByMinter: number;
  keptShare: number;
}

/** The time from a token's mint to its first sale after it, in seconds. */
export interface FirstSaleFigures {
  /** Tokens minted that sold at least once after their mint. */
  sold: number;
  neverSold: number;
  /** First quartile, median, third quartile; null when none sold. */
  quartiles: [number, number, number] | null;
  /** `from` inclusive, `to` exclusive (null: no end). */
  buckets: { range: string; from: number; to: number | null; tokens: number }[];
}

export interface MarketFigures {
  /** Each currency's highest sales, highest first; currencies in the price sort's order. */
  topSales: { currency: CurrencyRef; sales: MarketSale[] }[];
  sales: number;
  volume: MarketVolume[];
  marketplaces: { name: string | null; sales: number; share: number; volume: MarketVolume[] }[];
  minters: MintersFigures;
  firstSale: FirstSaleFigures;
}

/** `GET /api/collections/:address/market`. */
export interface MarketAnswer extends MarketFigures {
  from: number | null;
  to: number | null;
  /** How each figure is counted, in words. */
  counted: string;
  coverage: Coverage;
}

/** What a whole address, hash or token id is, as the index knows it (`GET /api/lookup/:value`). */
export type LookupMatch =
  | { kind: 'collection'; address: string; name: string | null }
  | { kind: 'wallet'; address: string }
  | { kind: 'transaction'; hash: string }
  | { kind: 'token'; collection: string; tokenId: string };

/** `GET /api/lookup/:value`: every match, none when the index has not seen the value. */
export interface LookupAnswer {
  value: string;
  matches: LookupMatch[];
}

/** `GET /api/transactions/:hash`: every change of hands in one transaction, across collections. */
export interface TransactionAnswer {
  hash: string;
  /** Oldest first; empty when the index has not seen the transaction. */
  events: EventRow[];
  /** Collections named in `events`, with their names. */
  collections: { address: string; name: string | null; symbol: string | null }[];
}
