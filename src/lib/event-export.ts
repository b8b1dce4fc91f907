import type { ExportRow } from './export';
import { priceExport } from './price';
import { toIso } from './time';
import type { TokenEvent } from './token-event';

/**
 * The columns of an events export: every field, ids and amounts as exact strings. A
 * sale's price as an amount in its currency, the currency's symbol and address (and
 * whether it was assumed), the base units in decimal, the price as the service wrote it
 * (decimal or hex) and the quantity.
 */
export const eventExportColumns = [
  'kind',
  'label',
  'token_id',
  'from',
  'to',
  'timestamp',
  'time_utc',
  'transaction_hash',
  'event_id',
  'price_amount',
  'price_symbol',
  'currency_address',
  'currency_assumed',
  'price_base_units',
  'price_as_sent',
  'quantity',
  'marketplace',
  'marketplace_address',
  'contract_address',
] as const;

/**
 * One row of the export; a row made of two records (a sale and its transfer twin) also
 * gives the records themselves under `records` (in the JSON export; CSV keeps the columns).
 */
export function eventExportRow(event: TokenEvent): ExportRow {
  const row: ExportRow = {
    kind: event.kind,
    label: event.label,
    token_id: event.tokenId,
    from: event.from,
    to: event.to,
    timestamp: event.timestamp,
    time_utc: toIso(event.timestamp),
    transaction_hash: event.transactionHash,
    event_id: event.eventId,
    ...priceExport(event),
    marketplace: event.marketplaceName,
    marketplace_address: event.marketplaceAddress,
    contract_address: event.contractAddress,
  };
  if (event.records) row.records = event.records.map(eventExportRow);
  return row;
}
