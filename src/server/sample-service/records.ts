import { tokenIdToDecimal, tokenIdToHex } from '../../lib/token-id';
import type { Contract, EventKind, Sale, TokenEvent } from './event-source';

/**
 * The JSON each profile sends. `documented` is the interface document to the letter;
 * `deployed` reproduces what the real deployment sends (see src/server/upstream/README.md).
 */
export type Profile = 'documented' | 'deployed';
export const PROFILES: readonly Profile[] = ['documented', 'deployed'];

export type JsonRecord = Record<string, string | number>;

/**
 * The deployed service stores a sale twice: the NFT's own transfer and the marketplace's
 * sale record. Rows of an event are numbered by part; other events have the transfer part only.
 */
export const TRANSFER_PART = 0;
export const SALE_PART = 1;
export type RecordPart = typeof TRANSFER_PART | typeof SALE_PART;

export function contractRecord(contract: Contract, profile: Profile): JsonRecord {
  const record = {
    contract_address: contract.address,
    contract_type: contract.type,
    name: contract.name,
    symbol: contract.symbol,
    image: contract.image,
  };
  if (profile === 'documented') return record;
  // The indexer registers no image for most contracts, and no chain id for any.
  return { ...record, image: contract.imageRegistered ? contract.image : '', chain_id: '' };
}

/** The parts an event is served as, in a contract's list order (the twins' order is per sale). */
export function recordParts(sale: Sale | null, profile: Profile): readonly RecordPart[] {
  if (profile === 'documented' || sale === null) return [TRANSFER_PART];
  return sale.saleFirst ? [SALE_PART, TRANSFER_PART] : [TRANSFER_PART, SALE_PART];
}

export function eventRecord(
  event: TokenEvent,
  profile: Profile,
  part: RecordPart = TRANSFER_PART,
): JsonRecord {
  const { token, sale } = event;
  const tokenIdHex = tokenIdToHex(token.id);
  if (profile === 'documented') {
    const record = {
      contract_address: token.contract.address,
      contract_type: token.contract.type,
      event_id: event.eventId,
      event_type: event.kind === 'mint' ? 'mint' : event.kind === 'sale' ? 'sale' : 'transfer',
      from_address: event.fromAddress,
      timestamp: event.timestamp,
      to_address: event.toAddress,
      token_id: tokenIdToDecimal(token.id),
      token_id_hex: tokenIdHex,
      transaction_hash: event.transactionHash,
    };
    // The clean form of a sale: one record, its price in decimal base units of its currency.
    if (sale === null) return record;
    return {
      ...record,
      price: sale.price,
      ...(sale.currency ? { currency_address: sale.currency.address } : {}),
    };
  }
  const movement = (from: string, to: string) => ({
    from_address: from,
    timestamp: String(event.timestamp),
    to_address: to,
    token_id: tokenIdToDecimal(token.id),
    token_id_hex: tokenIdHex,
    transaction_hash: event.transactionHash,
    block_number: String(blockNumber(event.timestamp)),
  });
  if (part === SALE_PART && sale !== null) {
    // The marketplace's record, in its own shape; on an accepted offer it names the parties
    // the other way round, and only the transfer says who held the token.
    const [from, to] = sale.reversed
      ? [event.toAddress, event.fromAddress]
      : [event.fromAddress, event.toAddress];
    return {
      nft_contract_address: token.contract.address,
      event_id: tokenIdHex,
      event_type: 'sale',
      ...movement(from, to),
      price: sale.hexPrice ? `0x${BigInt(sale.price).toString(16).padStart(64, '0')}` : sale.price,
      quantity: String(sale.quantity),
      marketplace_name: sale.marketplace.name,
      marketplace_contract_address: sale.marketplace.address,
      ...(sale.currency ? { currency_address: sale.currency.address } : {}),
    };
  }
  // Mints, burns and a sale's transfer twin are all labelled `transfer`.
  return {
    contract_address: token.contract.address,
    contract_type: token.contract.type,
    event_id: event.eventId,
    event_type: 'transfer',
    ...movement(event.fromAddress, event.toAddress),
  };
}

/** Served by each profile's contract lists: the deployed service never lists burns there. */
export function listedInContract(kind: EventKind, profile: Profile): boolean {
  return profile === 'documented' || kind !== 'burn';
}

/**
 * A Starknet block for a time: Starknet mainnet began in November 2021; one block every half
 * minute is near enough for records that only need it to grow with time.
 */
function blockNumber(timestamp: number): number {
  return Math.max(0, Math.floor((timestamp - 1_637_000_000) / 30));
}

/**
 * The list envelope around already serialised items. At the end of a list `documented`
 * sends `cursor: null` and `deployed` leaves it out; `result` is always an array.
 */
export function envelope(
  profile: Profile,
  items: readonly string[],
  cursor: string | null,
): string {
  const result = `"result":[${items.join(',')}]`;
  if (profile === 'documented' || cursor !== null) {
    return `{${result},"cursor":${JSON.stringify(cursor)}}`;
  }
  return `{${result}}`;
}

/** Both profiles' error body: `{"message": "…"}`. */
export function errorBody(message: string): string {
  return JSON.stringify({ message });
}
