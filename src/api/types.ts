/** The app's own shapes, whatever variation of the upstream records they came from. */

export type EventKind = 'mint' | 'transfer' | 'sale' | 'burn' | 'other';

export interface TokenEvent {
  /** Unique within a list: `event_id` alone is not unique upstream. */
  key: string;
  eventId: string;
  kind: EventKind;
  /** The upstream's `event_type` as sent, shown for kinds the app does not know. */
  label: string;
  contractAddress: string;
  contractType?: string;
  from: string;
  to: string;
  /** Decimal token id. */
  tokenId: string;
  /** Unix seconds. */
  timestamp: number;
  transactionHash: string;
  price?: string;
  quantity?: string;
  marketplaceName?: string;
  marketplaceAddress?: string;
  currencyAddress?: string;
}

export interface Contract {
  address: string;
  type?: string;
  name?: string;
  symbol?: string;
  image?: string;
}

/** One page of a list: the records that could be read, how many could not, and the cursor. */
export interface Page<T> {
  items: T[];
  skipped: number;
  /** `null` at the end, whether the upstream sent `null` or nothing. */
  cursor: string | null;
}
