import { isCanonicalAddress, isZeroAddress, parseAddress } from './address';
import type { Contract } from './contract';
import { isEventKind, type EventKind, type TokenEvent } from './token-event';
import { parseTokenId, tokenIdToDecimal } from './token-id';

/**
 * The one normaliser for upstream records (the envelope is read by `readPageEnvelope`,
 * shared with the proxy; records are checked by `readRecord` below). Both deployments of the service are accepted
 * (see src/server/upstream/README.md): numbers or strings for every value, `""` for missing, sale
 * records that say `nft_contract_address`, mints and burns labelled `transfer`, unknown
 * labels and extra fields. A record that cannot be read is counted and skipped, never
 * allowed to blank the rest of its page.
 */
type Value = string | number | null | undefined;
type RawRecord = Record<string, unknown>;

const EVENT_FIELDS = [
  'contract_address',
  'nft_contract_address',
  'contract_type',
  'event_id',
  'event_type',
  'from_address',
  'to_address',
  'timestamp',
  'token_id',
  'token_id_hex',
  'transaction_hash',
  'price',
  'quantity',
  'marketplace_name',
  'marketplace_contract_address',
  'currency_address',
] as const;
const CONTRACT_FIELDS = ['contract_address', 'contract_type', 'name', 'symbol', 'image'] as const;

/**
 * The shape check of one record: an object whose known fields are each a string, a
 * number, null or absent (unknown fields are ignored). Written by hand rather than with
 * a schema because it runs for every record of every page (1,500 per 1MB page), where a
 * schema library's generality cost more than the rest of the normaliser together.
 */
function readRecord<K extends string>(
  input: unknown,
  fields: readonly K[],
): Record<K, Value> | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const record = input as RawRecord;
  for (const field of fields) {
    const value = record[field];
    if (
      value !== undefined &&
      value !== null &&
      typeof value !== 'string' &&
      typeof value !== 'number'
    ) {
      return null;
    }
  }
  return record as Record<K, Value>;
}

/** A trimmed string, with `""`, null and absent all meaning "missing". */
function text(input: Value): string | undefined {
  if (input === null || input === undefined) return undefined;
  const result = String(input).trim();
  return result === '' ? undefined : result;
}

/**
 * Text passed on as sent, less any NUL (`\u0000`): PostgreSQL's text columns refuse it,
 * and one let through failed the whole page's ingest. What names a record (addresses,
 * token ids, times) is read with `text` and keeps it: a NUL there makes the value
 * unreadable, never another record's.
 */
function freeText(input: Value): string | undefined {
  return text(typeof input === 'string' ? input.replaceAll('\u0000', '') : input);
}

function address(input: Value): string | undefined {
  // Most upstream values are already canonical: keep them without copying.
  if (typeof input === 'string' && isCanonicalAddress(input)) return input;
  const raw = text(input);
  if (raw === undefined) return undefined;
  const parsed = parseAddress(raw);
  return parsed.ok ? parsed.value : undefined;
}

/** Unix seconds from a number or a numeric string. */
function seconds(input: Value): number | undefined {
  const raw = text(input);
  if (raw === undefined || !/^[0-9]{1,12}$/.test(raw)) return undefined;
  return Number(raw);
}

// A decimal without leading zeros and short of 2^256 is already canonical.
const CANONICAL_DECIMAL = /^(?:0|[1-9][0-9]{0,70})$/;

function tokenId(decimal: string | undefined, hex: string | undefined): string | undefined {
  if (decimal !== undefined && CANONICAL_DECIMAL.test(decimal)) return decimal;
  for (const candidate of [decimal, hex]) {
    if (candidate === undefined) continue;
    const parsed = parseTokenId(candidate);
    if (parsed.ok) return tokenIdToDecimal(parsed.value);
  }
  return undefined;
}

/** Mint and burn come from the zero address, whatever the label says. */
export function eventKind(label: string, from: string, to: string): EventKind {
  if (isZeroAddress(from)) return 'mint';
  if (isZeroAddress(to)) return 'burn';
  const lower = label.toLowerCase();
  return isEventKind(lower) ? lower : 'other';
}

export function normaliseEvent(input: unknown, contextAddress?: string): TokenEvent | null {
  const raw = readRecord(input, EVENT_FIELDS);
  if (!raw) return null;
  const contractAddress =
    address(raw.contract_address) ?? address(raw.nft_contract_address) ?? contextAddress;
  const from = address(raw.from_address);
  const to = address(raw.to_address);
  const timestamp = seconds(raw.timestamp);
  const id = tokenId(text(raw.token_id), text(raw.token_id_hex));
  if (!contractAddress || !from || !to || timestamp === undefined || id === undefined) return null;
  const label = freeText(raw.event_type) ?? '';
  const kind = eventKind(label, from, to);
  const eventId = freeText(raw.event_id) ?? '';
  const transactionHash = address(raw.transaction_hash) ?? '';
  const event: TokenEvent = {
    key: `${transactionHash}:${eventId}:${id}:${from.slice(-12)}:${to.slice(-12)}:${kind}`,
    eventId,
    kind,
    label: label || kind,
    contractAddress,
    from,
    to,
    tokenId: id,
    timestamp,
    transactionHash,
  };
  // Optional fields are set only when present, so records stay small (100,000 of them
  // may be loaded) and exports do not show empty columns as "undefined".
  const contractType = freeText(raw.contract_type);
  const price = freeText(raw.price);
  const quantity = freeText(raw.quantity);
  const marketplaceName = freeText(raw.marketplace_name);
  const marketplaceAddress = address(raw.marketplace_contract_address);
  const currencyAddress = address(raw.currency_address);
  if (contractType !== undefined) event.contractType = contractType;
  if (price !== undefined) event.price = price;
  if (quantity !== undefined) event.quantity = quantity;
  if (marketplaceName !== undefined) event.marketplaceName = marketplaceName;
  if (marketplaceAddress !== undefined) event.marketplaceAddress = marketplaceAddress;
  if (currencyAddress !== undefined) event.currencyAddress = currencyAddress;
  return event;
}

export function normaliseContract(input: unknown): Contract | null {
  const raw = readRecord(input, CONTRACT_FIELDS);
  if (!raw) return null;
  const contractAddress = address(raw.contract_address);
  if (!contractAddress) return null;
  const contract: Contract = { address: contractAddress };
  const type = freeText(raw.contract_type);
  const name = freeText(raw.name);
  const symbol = freeText(raw.symbol);
  const image = freeText(raw.image);
  if (type) contract.type = type;
  if (name) contract.name = name;
  if (symbol) contract.symbol = symbol;
  if (image) contract.image = image;
  return contract;
}
