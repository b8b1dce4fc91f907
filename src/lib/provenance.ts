import { isZeroAddress } from './address';
import type { TokenEvent } from './token-event';

/**
 * The story of one token, from its loaded events in time order: who minted it when,
 * each change of hands with how long the previous owner held it, and where it is now.
 */
export type ProvenanceEvent = Pick<TokenEvent, 'kind' | 'to' | 'timestamp'>;

export interface Holding<T> {
  event: T;
  owner: string | null;
  /** Seconds until the next change of hands; undefined for the current holding. */
  heldFor?: number;
}

export interface Provenance<T> {
  mint: T | null;
  holdings: Holding<T>[];
  currentOwner: string | null;
  burned: boolean;
  distinctOwners: number;
  sales: number;
}

export function buildProvenance<T extends ProvenanceEvent>(ordered: readonly T[]): Provenance<T> {
  const holdings: Holding<T>[] = [];
  const owners = new Set<string>();
  let mint: T | null = null;
  let burned = false;
  let sales = 0;
  for (const event of ordered) {
    if (event.kind === 'mint' && mint === null) mint = event;
    if (event.kind === 'sale') sales += 1;
    const previous = holdings[holdings.length - 1];
    if (previous) previous.heldFor = event.timestamp - previous.event.timestamp;
    const burnt = isZeroAddress(event.to);
    burned = burnt;
    const owner = burnt ? null : event.to;
    if (owner) owners.add(owner);
    holdings.push({ event, owner });
  }
  const last = holdings[holdings.length - 1];
  return {
    mint,
    holdings,
    currentOwner: last?.owner ?? null,
    burned,
    distinctOwners: owners.size,
    sales,
  };
}
