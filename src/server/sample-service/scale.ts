import { TIMELINE, draftContracts } from './catalogue';
import { checkedSize } from './dataset';
import {
  NOBODY,
  eventIdOf,
  saleOf,
  tokenQuantity,
  transactionHashOf,
  walletAddress,
} from './derived';
import type { Contract, EventKind, EventSource, Sale, Token, TokenEvent } from './event-source';
import { createRandom, hash32 } from './random';
import {
  HEAD_SHARES,
  firstAbove,
  planRounds,
  positionOf,
  scaleEventCounts,
  tokenAt,
  type Round,
} from './scale-shape';
import { DAY } from '../../lib/utc';

/**
 * The scale data: the real service's shape at millions of events (thousands of contracts,
 * a few with millions of events, most with a handful), made without holding the events.
 * Every event is a function of its number (scale-shape.ts lays a contract's events out in
 * rounds over its tokens), so a page anywhere in a list costs what the first does and the
 * memory is the contracts' and their rounds', whatever is walked. Nothing is added while it
 * serves (no live arrivals), and the example mint of the in-memory dataset is not placed.
 */

export interface ScaleOptions {
  seed?: number;
  contracts?: number;
  events?: number;
  /** Unix seconds the timeline ends at, as the in-memory dataset's. Default `TIMELINE.end`. */
  anchor?: number;
}

export interface ScaleData extends EventSource {
  readonly eventCount: number;
  /** Wallets are numbered 0 … walletCount - 1, the busiest first. */
  readonly walletCount: number;
}

export const DEFAULT_SCALE_SIZE = { seed: 1, contracts: 5_000, events: 10_000_000 } as const;
/** Contracts at most: their drafts (names, pictures) are kept. */
const MAX_CONTRACTS = 100_000;
/** Share of the contracts past the busiest that went quiet before the end of the timeline. */
const QUIET_SHARE = 0.4;
const BURN_SHARE = 0.03;
const SALE_SHARE = 0.45;
const SALT = { plan: 0x5ca1, time: 0x5ca2, holder: 0x5ca3, kind: 0x5ca4, life: 0x5ca5, id: 0x5ca6 };

const MASK64 = (1n << 64n) - 1n;
/** An odd multiplier, so `id = (t + key)·M mod 2^64` is a bijection; INVERSE undoes it. */
const MULTIPLIER = 0x9e3779b97f4a7c15n;
const INVERSE = inverse64(MULTIPLIER);

/** A contract with what its events are made from. */
interface Placed {
  contract: Contract;
  rounds: Round[];
  /** Global index of its token 0. */
  tokenBase: number;
  from: number;
  span: number;
  /** Random-id contracts: the bijection's key, and a 256-bit id's upper bits. */
  idKey: bigint;
  idHigh: bigint;
}

export function generateScaleData(options: ScaleOptions = {}): ScaleData {
  const {
    seed,
    contracts: contractCount,
    events,
    anchor,
  } = checkedSize(options, DEFAULT_SCALE_SIZE);
  if (contractCount > MAX_CONTRACTS)
    throw new RangeError(`contracts must be at most ${MAX_CONTRACTS}`);
  // A cursor names an event's record as 2·number + part in 32 bits.
  if (events >= 2 ** 31) throw new RangeError('events must be below 2^31');
  const shift = anchor - TIMELINE.end;
  const drafts = draftContracts(seed, contractCount);
  const { counts, ranked } = scaleEventCounts(seed, drafts, events);
  const head = new Set(ranked.slice(0, HEAD_SHARES.length));
  // Busy wallets (low numbers) recur across contracts; an even count, for the two halves.
  const halfWallets = Math.min(1_000_000, Math.max(32, Math.floor(events / 64)));

  let firstEvent = 0;
  let tokenBase = 0;
  const placed: Placed[] = drafts.map((draft, index) => {
    const { address, type, name, symbol, image, imageRegistered, tokenIds } = draft;
    const eventCount = counts[index] ?? 0;
    const contract: Contract = {
      index,
      address,
      type,
      name,
      symbol,
      image,
      imageRegistered,
      tokenIds,
      indexedAt: draft.indexedAt + shift,
      firstEvent,
      eventCount,
    };
    const rounds =
      eventCount > 0 ? planRounds(createRandom(seed, SALT.plan, index), eventCount, type) : [];
    const life =
      (TIMELINE.end - draft.indexedAt) *
      (0.2 + (0.8 * hash32(seed, SALT.life, index, 1)) / 2 ** 32);
    const quiet = !head.has(index) && hash32(seed, SALT.life, index, 0) / 2 ** 32 < QUIET_SHARE;
    const word = (n: number) => BigInt(hash32(seed, SALT.id, index, n));
    const entry: Placed = {
      contract,
      rounds,
      tokenBase,
      from: draft.indexedAt + shift,
      span: quiet ? Math.max(DAY, Math.floor(life)) : TIMELINE.end - draft.indexedAt,
      idKey: (word(0) << 32n) | word(1),
      idHigh: [2, 3, 4, 5, 6, 7].reduce((high, n) => (high << 32n) | word(n), 0n),
    };
    firstEvent += eventCount;
    tokenBase += rounds.at(-1)?.size ?? 0;
    return entry;
  });
  const contracts = placed.map((entry) => entry.contract);
  const byAddress = new Map(placed.map((entry) => [entry.contract.address, entry]));

  const placedOf = (seq: number): Placed => {
    const entry = placed[firstAbove(contracts, seq, (contract) => contract.firstEvent) - 1];
    if (!entry || seq >= entry.contract.firstEvent + entry.contract.eventCount) {
      throw new RangeError(`no event ${seq}`);
    }
    return entry;
  };
  const tokenId = (entry: Placed, t: number): bigint => {
    const style = entry.contract.tokenIds;
    if (style.kind === 'sequential') return style.first + BigInt(t);
    const low = ((BigInt(t) + entry.idKey) * MULTIPLIER) & MASK64;
    return style.bits === 64 ? low : (entry.idHigh << 64n) | low;
  };
  /** The contract's token number of an id, if the id is one the contract's style can give. */
  const tokenNumber = (entry: Placed, id: bigint): bigint | null => {
    const style = entry.contract.tokenIds;
    if (style.kind === 'sequential') return id - style.first;
    if (style.bits === 256 && id >> 64n !== entry.idHigh) return null;
    return ((id & MASK64) * INVERSE - entry.idKey) & MASK64;
  };
  const token = (entry: Placed, t: number): Token => {
    const index = entry.tokenBase + t;
    const { contract } = entry;
    return {
      index,
      contract,
      id: tokenId(entry, t),
      quantity: tokenQuantity(seed, contract.type, index),
    };
  };
  /** The round that mints token t: the first as large as to hold it. */
  const mintRound = (entry: Placed, t: number): number =>
    firstAbove(entry.rounds, t, (round) => round.size);
  /**
   * The wallet a token's k-th event gives it to. Wallets of even and odd k are told apart
   * by their lowest bit, so a token never goes to the wallet that holds it.
   */
  const holder = (entry: Placed, t: number, k: number): number =>
    2 *
      Math.floor(
        halfWallets * (hash32(seed, SALT.holder, entry.contract.index, t, k) / 2 ** 32) ** 2,
      ) +
    (k & 1);

  /** Where event `seq` stands: its contract, round, token and the token's event number k. */
  const locate = (seq: number) => {
    const entry = placedOf(seq);
    const number = seq - entry.contract.firstEvent;
    const r = firstAbove(entry.rounds, number, (round) => round.start) - 1;
    const round = entry.rounds[r] as Round;
    const t = tokenAt(round, number - round.start);
    return { entry, number, r, t, k: r - mintRound(entry, t) };
  };
  const kindOf = ({ entry, r, k }: ReturnType<typeof locate>, seq: number): EventKind => {
    if (k === 0) return 'mint';
    const draw = hash32(seed, SALT.kind, seq) / 2 ** 32;
    // Only a token's last event may burn it: nothing follows the last round.
    if (r === entry.rounds.length - 1 && draw < BURN_SHARE) return 'burn';
    return draw < BURN_SHARE + SALE_SHARE ? 'sale' : 'transfer';
  };
  const timestampOf = (entry: Placed, number: number, seq: number): number =>
    // Ascending with the event's number, as a contract's list order needs.
    entry.from +
    Math.floor(
      (entry.span * (number + hash32(seed, SALT.time, seq) / 2 ** 32)) / entry.contract.eventCount,
    );
  const event = (seq: number): TokenEvent => {
    const place = locate(seq);
    const { entry, number, t, k } = place;
    const kind = kindOf(place, seq);
    const of = token(entry, t);
    const timestamp = timestampOf(entry, number, seq);
    return {
      seq,
      token: of,
      kind,
      timestamp,
      fromAddress: walletAddress(seed, k === 0 ? NOBODY : holder(entry, t, k - 1)),
      toAddress: walletAddress(seed, kind === 'burn' ? NOBODY : holder(entry, t, k)),
      transactionHash: transactionHashOf(seed, seq),
      eventId: eventIdOf(seed, seq),
      sale: kind === 'sale' ? saleOf(seed, seq, timestamp, of) : null,
    };
  };
  const tokenEvents = (of: Token): number[] => {
    const entry = byAddress.get(of.contract.address);
    if (!entry) return [];
    const t = of.index - entry.tokenBase;
    const seqs: number[] = [];
    for (let r = mintRound(entry, t); r < entry.rounds.length; r += 1) {
      const round = entry.rounds[r] as Round;
      const number = round.start + positionOf(round, t);
      if (number < entry.contract.eventCount) seqs.push(entry.contract.firstEvent + number);
    }
    return seqs;
  };

  return {
    seed,
    anchor,
    contracts,
    eventCount: events,
    walletCount: 2 * halfWallets,
    contractByAddress: (canonicalAddress) => byAddress.get(canonicalAddress)?.contract,
    findToken: (contract, id) => {
      const entry = byAddress.get(contract.address);
      const number = entry && tokenNumber(entry, id);
      if (!entry || number === null || number === undefined || number < 0n) return undefined;
      const size = entry.rounds.at(-1)?.size ?? 0;
      if (number >= BigInt(size)) return undefined;
      const t = Number(number);
      // A token of the last round's plan may not be minted before the contract's events end.
      const round = entry.rounds[mintRound(entry, t)] as Round;
      if (round.start + positionOf(round, t) >= contract.eventCount) return undefined;
      return token(entry, t);
    },
    tokenEvents,
    addedEvents: () => [],
    event,
    kind: (seq) => kindOf(locate(seq), seq),
    eventId: (seq) => eventIdOf(seed, seq),
    sale: (seq): Sale | null => {
      const place = locate(seq);
      if (kindOf(place, seq) !== 'sale') return null;
      const timestamp = timestampOf(place.entry, place.number, seq);
      return saleOf(seed, seq, timestamp, token(place.entry, place.t));
    },
  };
}

/** The inverse of an odd number modulo 2^64 (Newton's iteration doubles the bits right). */
function inverse64(odd: bigint): bigint {
  let inverse = odd;
  for (let n = 0; n < 6; n += 1) inverse = (inverse * (2n - ((odd * inverse) & MASK64))) & MASK64;
  return inverse;
}
