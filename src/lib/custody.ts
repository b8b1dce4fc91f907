import { isZeroAddress } from './address';
import { saleCurrency } from './price';
import type { TokenEvent } from './token-event';
import { DAY } from './utc';

/**
 * A token's chain of custody: each owner in turn, how they got it (minted to them, bought
 * at a price, or received), how long they held it, how they let it go (sold, sent,
 * burned), and, when they both bought and sold it in the same currency, the realised
 * result in that currency. Amounts in different currencies are never compared, and a
 * price is taken as sent (never multiplied by a quantity, which is not known to be per
 * unit). Holdings under a day between a purchase and a sale are flips.
 */
export type CustodyEvent = Pick<
  TokenEvent,
  'kind' | 'to' | 'timestamp' | 'price' | 'currencyAddress' | 'transactionHash'
>;

export interface CustodyStep {
  how: 'minted' | 'bought' | 'received';
  at: number;
  transactionHash: string;
  /** Base units, with the currency's address (ETH's, `assumed`, when the sale named none). */
  price?: Amount;
}

export interface Custody {
  owner: string;
  acquired: CustodyStep;
  /** Absent while the owner still holds it. */
  disposed?: Omit<CustodyStep, 'how'> & { how: 'sold' | 'sent' | 'burned' };
  heldSeconds?: number;
  /** Sold minus bought, in the one currency both were in (`assumed` when either named none). */
  result?: Amount;
  flip: boolean;
}

/** Base units in one currency; `assumed`: ETH, as the sale named none. */
export interface Amount {
  units: string;
  currency: string;
  assumed?: true;
}

function priceOf(event: CustodyEvent): Amount | undefined {
  if (event.kind !== 'sale' || event.price === undefined || !/^[0-9]+$/.test(event.price)) {
    return undefined;
  }
  const { address, assumed } = saleCurrency(event.currencyAddress);
  return { units: event.price, currency: address, ...(assumed && { assumed }) };
}

/** The chain from the token's changes of hands in time order; each event's receiver holds it until the next. */
export function custodyChain(ordered: readonly CustodyEvent[]): Custody[] {
  const chain: Custody[] = [];
  ordered.forEach((event, index) => {
    // A transfer to the zero address is a burn: nobody holds the token after it.
    if (isZeroAddress(event.to)) return;
    const bought = priceOf(event);
    const acquired: CustodyStep = {
      how: event.kind === 'mint' ? 'minted' : bought ? 'bought' : 'received',
      at: event.timestamp,
      transactionHash: event.transactionHash,
      ...(bought && { price: bought }),
    };
    const next = ordered[index + 1];
    const custody: Custody = { owner: event.to, acquired, flip: false };
    if (next) {
      const sold = priceOf(next);
      custody.disposed = {
        how: next.kind === 'burn' ? 'burned' : sold ? 'sold' : 'sent',
        at: next.timestamp,
        transactionHash: next.transactionHash,
        ...(sold && { price: sold }),
      };
      custody.heldSeconds = next.timestamp - event.timestamp;
      if (bought && sold && bought.currency === sold.currency) {
        custody.result = {
          units: (BigInt(sold.units) - BigInt(bought.units)).toString(),
          currency: sold.currency,
          ...((bought.assumed || sold.assumed) && { assumed: true as const }),
        };
        custody.flip = custody.heldSeconds < DAY;
      }
    }
    chain.push(custody);
  });
  return chain;
}
