import { tokenIdToDecimal, tokenIdToHex } from '../../lib/token-id';
import type { Contract, EventKind, TokenEvent } from './dataset';

/**
 * The JSON each profile sends. `documented` is the interface document to the letter;
 * `deployed` reproduces what the real deployment sends (see upstream-notes.md).
 */
export type Profile = 'documented' | 'deployed';
export const PROFILES: readonly Profile[] = ['documented', 'deployed'];

export type JsonRecord = Record<string, string | number>;

export function contractRecord(contract: Contract, profile: Profile): JsonRecord {
  const record = {
    contract_address: contract.address,
    contract_type: contract.type,
    name: contract.name,
    symbol: contract.symbol,
    image: contract.image,
  };
  return profile === 'deployed' && contract.chainId !== null
    ? { ...record, chain_id: contract.chainId }
    : record;
}

export function eventRecord(event: TokenEvent, profile: Profile): JsonRecord {
  const { token, sale } = event;
  const deployed = profile === 'deployed';
  const tokenIdHex = tokenIdToHex(token.id);
  const movement = {
    from_address: event.fromAddress,
    timestamp: deployed ? String(event.timestamp) : event.timestamp,
    to_address: event.toAddress,
    token_id: tokenIdToDecimal(token.id),
    token_id_hex: tokenIdHex,
    transaction_hash: event.transactionHash,
  };
  if (deployed && sale !== null) {
    // The deployment's sales come from marketplace indexers, in their own shape.
    return {
      nft_contract_address: token.contract.address,
      event_id: sale.marketplace.reportsTokenAsEventId ? tokenIdHex : event.eventId,
      event_type: 'sale',
      ...movement,
      price: sale.price,
      quantity: String(token.quantity),
      marketplace_name: sale.marketplace.name,
      marketplace_contract_address: sale.marketplace.address,
      ...(sale.marketplace.reportsCurrency ? { currency_address: sale.currencyAddress } : {}),
    };
  }
  return {
    contract_address: token.contract.address,
    contract_type: token.contract.type,
    event_id: event.eventId,
    event_type: eventType(event.kind, profile),
    ...movement,
  };
}

/**
 * The document knows mint, transfer and sale, so a burn is a transfer (to the zero
 * address); the deployment labels mints `transfer` too.
 */
function eventType(kind: EventKind, profile: Profile): string {
  if (kind === 'sale') return 'sale';
  return profile === 'documented' && kind === 'mint' ? 'mint' : 'transfer';
}

/**
 * The list envelope around already serialised items. At the end of a list `documented`
 * sends `cursor: null` and `deployed` leaves it out; `deployed` also leaves out an empty
 * `result`.
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
  return items.length > 0 ? `{${result}}` : '{}';
}

/** Both profiles' error body: `{"message": "…"}`. */
export function errorBody(message: string): string {
  return JSON.stringify({ message });
}
