import type { EventRow } from '../../lib/answers';
import { tokenIdToHex } from '../../lib/token-id';
import { EVENT_KINDS } from '../../lib/token-event';
import { hexOf } from './sql';
import { washReasons } from './wash-flags';

export const EVENT_COLUMNS = `c.id, ic.address AS contract, c.tx, c.token_id::text AS token_id,
  c.from_addr, c.to_addr, c.ts, c.kind, c.label, c.event_id, c.has_transfer, c.has_sale,
  c.price::text AS price, c.price_text, c.currency, c.quantity::text AS quantity, c.marketplace,
  c.marketplace_addr, ic.contract_type, c.wash, c.currency_assumed`;

export const EVENT_FROM = `idx_changes c JOIN idx_contracts ic ON ic.id = c.contract_id`;

export interface EventRecord {
  id: string;
  contract: string;
  tx: Buffer;
  token_id: string;
  from_addr: Buffer;
  to_addr: Buffer;
  ts: string;
  kind: number;
  label: string;
  event_id: string;
  has_transfer: boolean;
  has_sale: boolean;
  price: string | null;
  price_text: string | null;
  currency: Buffer | null;
  quantity: string | null;
  marketplace: string | null;
  marketplace_addr: Buffer | null;
  contract_type: string | null;
  wash: number;
  currency_assumed: boolean;
}

export function eventRow(record: EventRecord): EventRow {
  const kind = EVENT_KINDS[record.kind] ?? 'other';
  const row: EventRow = {
    id: record.id,
    key: record.id,
    eventId: record.event_id,
    kind,
    label: record.label,
    contractAddress: record.contract,
    from: hexOf(record.from_addr),
    to: hexOf(record.to_addr),
    tokenId: record.token_id,
    tokenIdHex: tokenIdToHex(BigInt(record.token_id)),
    timestamp: Number(record.ts),
    transactionHash: hexOf(record.tx),
    records:
      record.has_transfer && record.has_sale
        ? 'transfer+sale'
        : record.has_sale
          ? 'sale'
          : 'transfer',
  };
  if (record.contract_type) row.contractType = record.contract_type;
  if (record.price !== null) row.price = record.price;
  if (record.price_text !== null) row.priceText = record.price_text;
  // A sale that named none is stored as ETH; its row says none, as the record did, and
  // the browser reads it as ETH assumed (`saleCurrency`).
  if (record.currency && !record.currency_assumed) row.currencyAddress = hexOf(record.currency);
  if (record.quantity !== null) row.quantity = record.quantity;
  if (record.marketplace !== null) row.marketplaceName = record.marketplace;
  if (record.marketplace_addr) row.marketplaceAddress = hexOf(record.marketplace_addr);
  if (record.wash !== 0) row.washFlags = washReasons(record.wash);
  return row;
}
