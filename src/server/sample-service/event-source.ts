import type { ContractDraft, Currency, Marketplace } from './catalogue';

/**
 * What the served pages are made from: contracts, their tokens and numbered events. The
 * in-memory dataset (dataset.ts) and the scale generator (scale.ts) both provide it, so one
 * page and record code (store.ts, records.ts) serves either.
 */

export type EventKind = 'mint' | 'transfer' | 'sale' | 'burn';

/** A drafted contract's record fields, placed in the data. */
export interface Contract extends Pick<
  ContractDraft,
  'address' | 'type' | 'name' | 'symbol' | 'image' | 'imageRegistered' | 'indexedAt' | 'tokenIds'
> {
  /** Position in indexing order, which is the order of the contracts list. */
  index: number;
  /**
   * The contract's generated events are numbered firstEvent … firstEvent + eventCount - 1,
   * oldest first; events added later are listed by `addedEvents`.
   */
  firstEvent: number;
  eventCount: number;
}

export interface Token {
  index: number;
  contract: Contract;
  id: bigint;
  /** Copies moved together: 1 for ERC721, a small lot for ERC1155. */
  quantity: number;
}

export interface Sale {
  marketplace: Marketplace;
  /** null when the marketplace names none (Ventory); `symbol: null` for an unknown token. */
  currency: Currency | null;
  /** In the currency's smallest unit, as a decimal string. */
  price: string;
  /** The deployed service writes this record's price as `0x` + 64 hex digits. */
  hexPrice: boolean;
  /** Copies sold: 1 but on ERC1155 sales at Element. */
  quantity: number;
  /** An accepted offer: the marketplace's record names seller and buyer the other way round. */
  reversed: boolean;
  /** The sale record comes before its transfer twin in a contract's list (equal times). */
  saleFirst: boolean;
}

export interface TokenEvent {
  /** The event's number: its key in this data, and the order it happened in. */
  seq: number;
  token: Token;
  kind: EventKind;
  timestamp: number;
  fromAddress: string;
  toAddress: string;
  transactionHash: string;
  eventId: string;
  sale: Sale | null;
}

export interface EventSource {
  readonly seed: number;
  /** Unix seconds the generated timeline ends at. */
  readonly anchor: number;
  /** Oldest-indexed first; `contracts[i].index === i`. */
  readonly contracts: readonly Contract[];
  contractByAddress(canonicalAddress: string): Contract | undefined;
  findToken(contract: Contract, id: bigint): Token | undefined;
  /** The numbers of a token's events in the order they happened: mint first. */
  tokenEvents(token: Token): ArrayLike<number>;
  /** The numbers of the events added to a contract after generation, oldest first. */
  addedEvents(contract: Contract): readonly number[];
  event(seq: number): TokenEvent;
  kind(seq: number): EventKind;
  eventId(seq: number): string;
  sale(seq: number): Sale | null;
}
