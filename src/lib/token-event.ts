/** The app's own event shape, whatever variation of the upstream records it came from. */

/**
 * Every kind of event the app tells apart, in the order it shows them (filters, chart
 * stacks, legends). Each use of the kinds is a `Record<EventKind, …>` or an exhaustive
 * switch, so a kind added here fails to compile wherever it is not handled yet.
 */
export const EVENT_KINDS = ['mint', 'transfer', 'sale', 'burn', 'other'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** What people read for each kind. */
export const EVENT_KIND_NAMES: Record<EventKind, string> = {
  mint: 'Mint',
  transfer: 'Transfer',
  sale: 'Sale',
  burn: 'Burn',
  other: 'Other',
};

/** The kind as a row shows it: its name, or the upstream's own label for kinds we do not know. */
export function kindName(event: Pick<TokenEvent, 'kind' | 'label'>): string {
  return event.kind === 'other' ? event.label : EVENT_KIND_NAMES[event.kind];
}

export function isEventKind(value: string): value is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(value);
}

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
  /** Why a sale looks like a wash trade, one reason each rule that fired (the index says). */
  washFlags?: readonly string[];
}
