import type { TokenEvent } from './token-event';

/**
 * The real service stores every sale twice (upstream-notes, "Sales"): the NFT's own
 * `transfer` record and the marketplace's `sale` record, with the same transaction and
 * token. One transfer of ownership is one row: the transfer says who held the token (the
 * sale's maker and taker may be the other way round on an accepted offer), the sale
 * record adds its price, currency, quantity and marketplace.
 */

/**
 * The key two halves of one sale share (contract, transaction and token), or null for a
 * record that is never half of one: mints, burns, unknown kinds, rows already joined.
 */
export function twinKey(event: TokenEvent): string | null {
  if (event.records || !event.transactionHash) return null;
  if (event.kind !== 'sale' && event.kind !== 'transfer') return null;
  return `${event.contractAddress}:${event.transactionHash}:${event.tokenId}`;
}

/**
 * The one row of a sale and its transfer twin, the two records kept in `records`; null
 * when the two are not a sale and a transfer (two transfers of one token in one
 * transaction are two changes of hands).
 */
export function joinTwins(a: TokenEvent, b: TokenEvent): TokenEvent | null {
  if ((a.kind === 'sale') === (b.kind === 'sale')) return null;
  const [sale, transfer] = a.kind === 'sale' ? [a, b] : [b, a];
  const row: TokenEvent = {
    ...transfer,
    key: `sale:${twinKey(transfer)}`,
    kind: 'sale',
    label: sale.label,
    records: [transfer, sale],
  };
  if (sale.price !== undefined) row.price = sale.price;
  if (sale.quantity !== undefined) row.quantity = sale.quantity;
  if (sale.marketplaceName !== undefined) row.marketplaceName = sale.marketplaceName;
  if (sale.marketplaceAddress !== undefined) row.marketplaceAddress = sale.marketplaceAddress;
  if (sale.currencyAddress !== undefined) row.currencyAddress = sale.currencyAddress;
  return row;
}

/** The keys a row answers to: its own and those of the records it was made of. */
export function keysOf(row: TokenEvent): string[] {
  return row.records ? [row.key, ...row.records.map((record) => record.key)] : [row.key];
}
