import type { ExportRow } from './export';
import { formatUnits } from './format';
import { toIso } from './time';
import type { TokenEvent } from './token-event';

/** The columns of an events export: every field, ids and amounts as exact strings. */
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
  'price',
  'price_units',
  'quantity',
  'marketplace',
  'contract_address',
] as const;

export function eventExportRow(event: TokenEvent): ExportRow {
  return {
    kind: event.kind,
    label: event.label,
    token_id: event.tokenId,
    from: event.from,
    to: event.to,
    timestamp: event.timestamp,
    time_utc: toIso(event.timestamp),
    transaction_hash: event.transactionHash,
    event_id: event.eventId,
    price: event.price,
    price_units: event.price ? formatUnits(event.price, 18, 18).replace(/,/g, '') : undefined,
    quantity: event.quantity,
    marketplace: event.marketplaceName,
    contract_address: event.contractAddress,
  };
}
