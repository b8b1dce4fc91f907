import * as z from 'zod/mini';
import { isZeroAddress, parseAddress } from '../lib/address';
import { parseTokenId, tokenIdToDecimal } from '../lib/token-id';
import type { Contract, EventKind, Page, TokenEvent } from './types';

/**
 * The one normaliser for upstream records. Both deployments of the service are accepted
 * (see upstream-notes): numbers or strings for every value, `""` for missing, sale
 * records that say `nft_contract_address`, mints and burns labelled `transfer`, unknown
 * labels and extra fields. A record that cannot be read is counted and skipped, never
 * allowed to blank the rest of its page.
 */
const value = z.optional(z.nullable(z.union([z.string(), z.number()])));

const rawEvent = z.looseObject({
  contract_address: value,
  nft_contract_address: value,
  contract_type: value,
  event_id: value,
  event_type: value,
  from_address: value,
  to_address: value,
  timestamp: value,
  token_id: value,
  token_id_hex: value,
  transaction_hash: value,
  price: value,
  quantity: value,
  marketplace_name: value,
  marketplace_contract_address: value,
  currency_address: value,
});

const rawContract = z.looseObject({
  contract_address: value,
  contract_type: value,
  name: value,
  symbol: value,
  image: value,
});

const envelope = z.looseObject({
  result: z.optional(z.nullable(z.array(z.unknown()))),
  cursor: z.optional(z.nullable(z.string())),
});

/** A trimmed string, with `""`, null and absent all meaning "missing". */
function text(input: string | number | null | undefined): string | undefined {
  if (input === null || input === undefined) return undefined;
  const result = String(input).trim();
  return result === '' ? undefined : result;
}

function address(input: string | number | null | undefined): string | undefined {
  const raw = text(input);
  if (raw === undefined) return undefined;
  const parsed = parseAddress(raw);
  return parsed.ok ? parsed.value : undefined;
}

/** Unix seconds from a number or a numeric string. */
function seconds(input: string | number | null | undefined): number | undefined {
  const raw = text(input);
  if (raw === undefined || !/^[0-9]{1,12}$/.test(raw)) return undefined;
  return Number(raw);
}

function tokenId(decimal: string | undefined, hex: string | undefined): string | undefined {
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
  if (lower === 'transfer' || lower === 'sale' || lower === 'mint' || lower === 'burn')
    return lower;
  return 'other';
}

export function normaliseEvent(input: unknown, contextAddress?: string): TokenEvent | null {
  const parsed = rawEvent.safeParse(input);
  if (!parsed.success) return null;
  const raw = parsed.data;
  const contractAddress =
    address(raw.contract_address) ?? address(raw.nft_contract_address) ?? contextAddress;
  const from = address(raw.from_address);
  const to = address(raw.to_address);
  const timestamp = seconds(raw.timestamp);
  const id = tokenId(text(raw.token_id), text(raw.token_id_hex));
  if (!contractAddress || !from || !to || timestamp === undefined || id === undefined) return null;
  const label = text(raw.event_type) ?? '';
  const kind = eventKind(label, from, to);
  const eventId = text(raw.event_id) ?? '';
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
  const optional = {
    contractType: text(raw.contract_type),
    price: text(raw.price),
    quantity: text(raw.quantity),
    marketplaceName: text(raw.marketplace_name),
    marketplaceAddress: address(raw.marketplace_contract_address),
    currencyAddress: address(raw.currency_address),
  };
  for (const [name, field] of Object.entries(optional)) {
    if (field !== undefined) (event as unknown as Record<string, string>)[name] = field;
  }
  return event;
}

export function normaliseContract(input: unknown): Contract | null {
  const parsed = rawContract.safeParse(input);
  if (!parsed.success) return null;
  const raw = parsed.data;
  const contractAddress = address(raw.contract_address);
  if (!contractAddress) return null;
  const contract: Contract = { address: contractAddress };
  const type = text(raw.contract_type);
  const name = text(raw.name);
  const symbol = text(raw.symbol);
  const image = text(raw.image);
  if (type) contract.type = type;
  if (name) contract.name = name;
  if (symbol) contract.symbol = symbol;
  if (image) contract.image = image;
  return contract;
}

export class InvalidPageError extends Error {}

/** Reads a list envelope; `null` and an absent cursor both mean "no more pages". */
export function parsePage<T>(input: unknown, normalise: (item: unknown) => T | null): Page<T> {
  const parsed = envelope.safeParse(input);
  if (!parsed.success) throw new InvalidPageError('The page is not a list envelope.');
  const items: T[] = [];
  let skipped = 0;
  for (const item of parsed.data.result ?? []) {
    const normalised = normalise(item);
    if (normalised === null) skipped += 1;
    else items.push(normalised);
  }
  const cursor = parsed.data.cursor;
  return { items, skipped, cursor: cursor ? cursor : null };
}
