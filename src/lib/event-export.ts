import type { EventRow } from './answers';
import type { ExportRow } from './export';
import { priceExport } from './price';
import { toIso } from './time';
import { kindName } from './token-event';

/**
 * The columns of an events export, each said once, ids and amounts as exact strings: the
 * token id in decimal and hex, the time in UTC, a sale's price as an amount in its
 * currency with the currency's symbol and address (and whether it was assumed) and the
 * base units in decimal; the price as the service wrote it only when it is no number;
 * which records the row was made of (a sale's transfer and sale records are one row); why
 * a sale looks like a wash trade (the reasons, one sentence each; empty when none fired).
 */
export const eventExportColumns = [
  'kind',
  'token_id',
  'token_id_hex',
  'from',
  'to',
  'time_utc',
  'transaction_hash',
  'price_amount',
  'price_symbol',
  'currency_address',
  'currency_assumed',
  'price_base_units',
  'price_as_sent',
  'quantity',
  'marketplace',
  'marketplace_address',
  'records',
  'contract_address',
  'wash_flags',
] as const;

export type ExportedEvent = Omit<EventRow, 'id'>;

export function eventExportRow(event: ExportedEvent): ExportRow {
  return {
    kind: kindName(event),
    token_id: event.tokenId,
    token_id_hex: event.tokenIdHex,
    from: event.from,
    to: event.to,
    time_utc: toIso(event.timestamp),
    transaction_hash: event.transactionHash,
    ...priceExport(event),
    ...(event.priceText !== undefined && { price_as_sent: event.priceText }),
    marketplace: event.marketplaceName,
    marketplace_address: event.marketplaceAddress,
    records: event.records,
    contract_address: event.contractAddress,
    wash_flags: event.washFlags?.join(' ') ?? '',
  };
}
