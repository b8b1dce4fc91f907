import { hash } from 'node:crypto';
import { parseBaseUnits, saleCurrency } from '../../lib/price';
import type { EventKind, TokenEvent } from '../../lib/token-event';
import { KIND_CODES } from './index-schema';

/**
 * One change of hands as the index keeps it, made from one normalised record (see
 * src/lib/normalise.ts), and the rule that joins a sale's two records into one.
 *
 * The rule is written twice: here, for the records of one batch (PostgreSQL refuses to
 * update one row twice in one statement), and in ingest.ts's `ON CONFLICT` clause, for a
 * record whose twin is already stored. Both say: the transfer record's columns (from, to,
 * time, kind) win over the sale record's, whose maker and taker may be reversed; the sale
 * record adds price, currency, quantity and marketplace.
 *
 * A sale that names no currency is stored as ETH with `currencyAssumed` (`saleCurrency`,
 * the one currency rule): every figure, sort and result reads it as ETH, and the mark
 * stays for whoever shows it or filters on it.
 */
export interface ChangeRow {
  key: Buffer;
  contract: string;
  tx: string;
  tokenId: string;
  from: string;
  to: string;
  ts: number;
  baseKind: number;
  label: string;
  eventId: string;
  hasTransfer: boolean;
  hasSale: boolean;
  /** Exact base units in decimal; null when the record has no readable price. */
  price: string | null;
  /** The price as sent when it is not a number in either format. */
  priceText: string | null;
  /** A sale's currency (ETH when it names none); null for a transfer alone. */
  currency: string | null;
  /** The sale named no currency: ETH is assumed. */
  currencyAssumed: boolean;
  quantity: string | null;
  marketplace: string | null;
  marketplaceAddress: string | null;
  seller: string | null;
  buyer: string | null;
}

/**
 * The identity of a change of hands: contract, transaction, token and the two addresses
 * in either order (a sale record may name them the other way round). A record without a
 * transaction hash cannot have a twin; it is named by all it says, so two such records
 * never collapse into one unless they are the same record.
 */
export function changeKey(event: TokenEvent): Buffer {
  if (event.transactionHash) {
    const [lo, hi] = event.from < event.to ? [event.from, event.to] : [event.to, event.from];
    return hash(
      'md5',
      `${event.contractAddress}|${event.transactionHash}|${event.tokenId}|${lo}|${hi}`,
      'buffer',
    );
  }
  return hash(
    'md5',
    JSON.stringify([
      event.contractAddress,
      event.tokenId,
      event.from,
      event.to,
      event.timestamp,
      event.eventId,
      event.label,
      event.price ?? null,
      event.marketplaceAddress ?? null,
    ]),
    'buffer',
  );
}

const kindCode = (kind: EventKind) => KIND_CODES[kind];

export function changeRow(event: TokenEvent): ChangeRow {
  const sale = event.label.toLowerCase() === 'sale';
  const units = sale && event.price !== undefined ? parseBaseUnits(event.price) : null;
  const currency = sale ? saleCurrency(event.currencyAddress) : null;
  return {
    key: changeKey(event),
    contract: event.contractAddress,
    tx: event.transactionHash,
    tokenId: event.tokenId,
    from: event.from,
    to: event.to,
    ts: event.timestamp,
    baseKind: kindCode(event.kind),
    label: event.label,
    eventId: event.eventId,
    hasTransfer: !sale,
    hasSale: sale,
    price: units === null ? null : units.toString(),
    priceText: sale && units === null && event.price !== undefined ? event.price : null,
    currency: currency?.address ?? null,
    currencyAssumed: currency?.assumed ?? false,
    quantity:
      sale && event.quantity !== undefined && /^[0-9]{1,78}$/.test(event.quantity)
        ? event.quantity
        : null,
    marketplace: sale ? (event.marketplaceName ?? null) : null,
    marketplaceAddress: sale ? (event.marketplaceAddress ?? null) : null,
    seller: sale ? event.from : null,
    buyer: sale ? event.to : null,
  };
}

/** Two rows of one key joined, `stored` first: the same rule as ingest.ts's upsert. */
export function mergeChange(stored: ChangeRow, incoming: ChangeRow): ChangeRow {
  const transfer = incoming.hasTransfer || !stored.hasTransfer ? incoming : stored;
  const sale = incoming.hasSale ? incoming : stored;
  return {
    ...transfer,
    hasTransfer: stored.hasTransfer || incoming.hasTransfer,
    hasSale: stored.hasSale || incoming.hasSale,
    price: sale.price,
    priceText: sale.priceText,
    currency: sale.currency,
    currencyAssumed: sale.currencyAssumed,
    quantity: sale.quantity,
    marketplace: sale.marketplace,
    marketplaceAddress: sale.marketplaceAddress,
    seller: sale.seller,
    buyer: sale.buyer,
  };
}

/** The rows of a batch of records, one per key. */
export function changeRows(events: readonly TokenEvent[]): ChangeRow[] {
  const byKey = new Map<string, ChangeRow>();
  for (const event of events) {
    const row = changeRow(event);
    const id = row.key.toString('latin1');
    const stored = byKey.get(id);
    byKey.set(id, stored ? mergeChange(stored, row) : row);
  }
  return [...byKey.values()];
}
