import { rankedByRole, type ContractDraft, type ContractType } from './catalogue';
import { createRandom, type Random } from './random';

/**
 * The shape of the scale data (scale.ts), as pure functions of the seed: how many events
 * each contract has, and how a contract's events are laid out so that any one of them can
 * be made from its number alone.
 */

/**
 * Shares of all events for the busiest contracts (the first two are the fixed real ones):
 * at 10,000,000 events one of 3,000,000, then 1,000,000 down to 500,000.
 */
export const HEAD_SHARES = [0.3, 0.1, 0.08, 0.06, 0.05] as const;
/**
 * The other active contracts share the rest by a Zipf law, (rank + offset)^-exponent: at
 * 10,000,000 events over 5,000 contracts the largest of them has about 190,000 events, the
 * median a few dozen, the smallest a handful.
 */
const TAIL = { exponent: 1.5, offset: 10 } as const;

/** Events per contract (in the drafts' order): heavy-tailed, idle contracts none. */
export function scaleEventCounts(seed: number, drafts: readonly ContractDraft[], total: number) {
  const random = createRandom(seed, 0x5ca1e, 2);
  const ranked = rankedByRole(random, drafts);
  const tail = ranked.length - HEAD_SHARES.length;
  const tailWeight = (rank: number) =>
    (rank - HEAD_SHARES.length + 1 + TAIL.offset) ** -TAIL.exponent;
  let tailSum = 0;
  for (let rank = HEAD_SHARES.length; rank < ranked.length; rank += 1) tailSum += tailWeight(rank);
  const headShare = HEAD_SHARES.slice(0, ranked.length).reduce((sum, share) => sum + share, 0);
  const tailShare = tail > 0 ? 1 - headShare : 0;
  const weights = ranked.map(
    (_, rank) => HEAD_SHARES[rank] ?? (tailShare * tailWeight(rank)) / tailSum,
  );
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);

  const counts = drafts.map(() => 0);
  let assigned = 0;
  ranked.forEach((contract, rank) => {
    // Every active contract has an event at least, while there are events to give.
    const share = Math.floor((total * (weights[rank] ?? 0)) / weightSum);
    const count = Math.min(Math.max(1, share), total - assigned);
    counts[contract] = count;
    assigned += count;
  });
  const busiest = ranked[0];
  if (busiest !== undefined) counts[busiest] = (counts[busiest] ?? 0) + total - assigned;
  return { counts, ranked };
}

/**
 * One pass over a contract's tokens: the tokens 0 … size - 1 each have one event in it, in
 * an order shuffled by `position → (a·position + b) mod size` (a bijection, as a is prime
 * to size). Tokens from the previous round's size on are minted in it.
 */
export interface Round {
  /** The contract's event number (from 0) of the round's first event. */
  start: number;
  size: number;
  a: number;
  b: number;
  /** a's inverse modulo size: the position of a token in the round. */
  aInverse: number;
}

/**
 * A contract's events as rounds: every token moves once a round, so the k-th event of a
 * token is in the k-th round after the one that minted it, and its holder before that
 * event is the one the previous round gave it. Rounds grow as tokens are minted, then stay
 * at the contract's token count; the last one is cut at the contract's event count.
 */
export function planRounds(random: Random, events: number, type: ContractType): Round[] {
  // Collections mint a share of their events; ERC1155 lots change hands more than they are minted.
  const mintShare = type === 'ERC721' ? 0.15 + 0.25 * random.float() : 0.05 + 0.1 * random.float();
  const tokens = Math.max(1, Math.round(events * mintShare));
  const growth = Math.max(1, Math.ceil(tokens * (0.1 + 0.2 * random.float())));
  const rounds: Round[] = [];
  let size = Math.max(1, Math.ceil(tokens * (0.3 + 0.3 * random.float())));
  for (let start = 0; start < events; start += size) {
    if (rounds.length > 0) size = Math.min(tokens, size + growth);
    const a = primeTo(size, 1 + random.int(Math.max(1, size - 1)));
    rounds.push({ start, size, a, b: random.int(size), aInverse: inverseModulo(a, size) });
  }
  return rounds;
}

/** The token at a position of a round, and the position of a token in it. */
export const tokenAt = (round: Round, position: number): number =>
  (round.a * position + round.b) % round.size;
export const positionOf = (round: Round, token: number): number =>
  (round.aInverse * ((token - round.b + round.size) % round.size)) % round.size;

/** The index of the first item whose `key` is above `value` (items ascending by key). */
export function firstAbove<T>(items: readonly T[], value: number, key: (item: T) => number) {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (key(items[middle] as T) > value) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The first of `from`, from + 1, … (wrapping below `modulus`, skipping 0) prime to `modulus`. */
function primeTo(modulus: number, from: number): number {
  if (modulus <= 2) return 1;
  let candidate = from;
  while (gcd(candidate, modulus) !== 1) candidate = (candidate % (modulus - 1)) + 1;
  return candidate;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function inverseModulo(a: number, modulus: number): number {
  if (modulus === 1) return 0;
  let [oldR, r] = [a, modulus];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const quotient = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  return ((oldS % modulus) + modulus) % modulus;
}
