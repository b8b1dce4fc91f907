import { ZERO_ADDRESS } from '../../lib/address';
import {
  CURRENCIES,
  MARKETPLACES,
  TIMELINE,
  draftContracts,
  type ContractDraft,
  type ContractType,
  type Marketplace,
} from './catalogue';
import { createRandom, fieldElementHex, hash32, type Random } from './random';

/**
 * The sample data: contracts and a simulated history of their tokens.
 *
 * 320,000 events with six 64-digit strings each would take hundreds of megabytes, so events
 * live in typed-array columns and their hashes (transaction hash, event id) and sale details
 * are derived from the event's number when a record is built.
 */

export interface DatasetOptions {
  seed?: number;
  contracts?: number;
  events?: number;
}

export const DEFAULT_DATASET_SIZE = { seed: 1, contracts: 50, events: 320_000 } as const;

export type EventKind = 'mint' | 'transfer' | 'sale' | 'burn';

/** A drafted contract's record fields, placed in the dataset. */
export interface Contract extends Pick<
  ContractDraft,
  'address' | 'type' | 'name' | 'symbol' | 'image' | 'chainId' | 'indexedAt'
> {
  /** Position in indexing order, which is the order of the contracts list. */
  index: number;
  /** The contract's events are numbered firstEvent … firstEvent + eventCount - 1, oldest first. */
  firstEvent: number;
  eventCount: number;
}

export interface Token {
  index: number;
  contract: Contract;
  id: bigint;
  /** Copies moved together: 1 for ERC721, a small lot for ERC1155. */
  quantity: number;
}

export interface Sale {
  /** In the currency's smallest unit (wei-like), as a decimal string. */
  price: string;
  marketplace: Marketplace;
  currencyAddress: string;
}

export interface TokenEvent {
  /** The event's number: its key in this dataset, and the order it happened in. */
  seq: number;
  token: Token;
  kind: EventKind;
  timestamp: number;
  fromAddress: string;
  toAddress: string;
  transactionHash: string;
  eventId: string;
  sale: Sale | null;
}

export interface Dataset {
  readonly seed: number;
  /** Oldest-indexed first; `contracts[i].index === i`. */
  readonly contracts: readonly Contract[];
  readonly eventCount: number;
  readonly tokenCount: number;
  contractByAddress(canonicalAddress: string): Contract | undefined;
  token(index: number): Token;
  findToken(contract: Contract, id: bigint): Token | undefined;
  /** The numbers of a token's events in the order they happened: mint first. */
  tokenEvents(token: Token): Uint32Array;
  event(seq: number): TokenEvent;
  timestamp(seq: number): number;
  eventId(seq: number): string;
}

const KINDS: readonly EventKind[] = ['mint', 'transfer', 'sale', 'burn'];
const [MINT, TRANSFER, SALE, BURN] = [0, 1, 2, 3] as const;
/** Wallet number standing for the zero address: the sender of mints, receiver of burns. */
const NOBODY = -1;
const SALT = { wallet: 1, simulation: 2, transaction: 3, eventId: 4, sale: 5, quantity: 6 };

/** Shares of all events for the busiest three contracts; the rest follow a 1/rank tail. */
const TOP_SHARES = [0.35, 0.315, 0.3125];
const TAIL_SHARE = 1 - TOP_SHARES.reduce((sum, share) => sum + share, 0);

export function generateDataset(options: DatasetOptions = {}): Dataset {
  const seed = options.seed ?? DEFAULT_DATASET_SIZE.seed;
  const contractCount = options.contracts ?? DEFAULT_DATASET_SIZE.contracts;
  const events = options.events ?? DEFAULT_DATASET_SIZE.events;
  for (const [name, value] of Object.entries({ seed, contracts: contractCount, events })) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative integer`);
    }
  }
  // Tokens record their contract in 16 bits.
  if (contractCount > 0xffff) throw new RangeError('contracts must be at most 65535');
  const drafts = draftContracts(seed, contractCount);
  const counts = eventCounts(seed, drafts, events);
  const wallets = Array.from({ length: Math.min(20_000, Math.max(64, events >> 4)) }, (_, n) =>
    fieldElementHex(seed, SALT.wallet, n),
  );
  const history = simulate(seed, drafts, counts, wallets.length);

  let firstEvent = 0;
  const contracts: Contract[] = drafts.map((draft, index) => {
    const { address, type, name, symbol, image, chainId, indexedAt } = draft;
    const contract = { index, address, type, name, symbol, image, chainId, indexedAt };
    const eventCount = counts[index] ?? 0;
    firstEvent += eventCount;
    return { ...contract, firstEvent: firstEvent - eventCount, eventCount };
  });
  const byAddress = new Map(contracts.map((contract) => [contract.address, contract]));
  const byToken = tokenEventIndex(history.token, history.tokenIds.length);

  const at = <T>(items: ArrayLike<T>, index: number): T => {
    const item = items[index];
    if (item === undefined) throw new RangeError(`no item ${index}`);
    return item;
  };
  const token = (index: number): Token => {
    const contract = at(contracts, at(history.tokenContract, index));
    const quantity = contract.type === 'ERC721' ? 1 : 1 + (hash32(seed, SALT.quantity, index) % 25);
    return { index, contract, id: at(history.tokenIds, index), quantity };
  };
  const address = (wallet: number): string =>
    wallet === NOBODY ? ZERO_ADDRESS : at(wallets, wallet);
  const eventId = (seq: number): string => fieldElementHex(seed, SALT.eventId, seq);
  const sale = (seq: number): Sale => {
    const draw = hash32(seed, SALT.sale, seq);
    const mantissa = 1 + (draw % 9_999);
    const exponent = 13 + ((draw >>> 16) % 5);
    return {
      price: (BigInt(mantissa) * 10n ** BigInt(exponent)).toString(),
      marketplace: at(MARKETPLACES, (draw >>> 20) % MARKETPLACES.length),
      currencyAddress: (draw >>> 24) % 3 === 0 ? CURRENCIES.STRK : CURRENCIES.ETH,
    };
  };

  return {
    seed,
    contracts,
    eventCount: history.time.length,
    tokenCount: history.tokenIds.length,
    contractByAddress: (canonicalAddress) => byAddress.get(canonicalAddress),
    token,
    findToken: (contract, id) => {
      const index = history.tokenMaps[contract.index]?.get(id);
      return index === undefined ? undefined : token(index);
    },
    tokenEvents: (of) =>
      byToken.seqs.subarray(at(byToken.start, of.index), at(byToken.start, of.index + 1)),
    event: (seq) => {
      const kind = at(history.kind, seq);
      return {
        seq,
        token: token(at(history.token, seq)),
        kind: at(KINDS, kind),
        timestamp: at(history.time, seq),
        fromAddress: address(at(history.from, seq)),
        toAddress: address(at(history.to, seq)),
        transactionHash: fieldElementHex(seed, SALT.transaction, at(history.transaction, seq)),
        eventId: eventId(seq),
        sale: kind === SALE ? sale(seq) : null,
      };
    },
    timestamp: (seq) => at(history.time, seq),
    eventId,
  };
}

/** Power-law activity: three contracts take most events, idle ones get none. */
function eventCounts(seed: number, drafts: readonly ContractDraft[], total: number): number[] {
  const random = createRandom(seed, 0x5ca1e);
  const place = (role: ContractDraft['role']): number[] =>
    drafts.flatMap((draft, index) => (draft.role === role ? [index] : []));
  const others = place('any');
  for (let n = others.length - 1; n > 0; n -= 1) {
    const m = random.int(n + 1);
    [others[n], others[m]] = [others[m] ?? 0, others[n] ?? 0];
  }
  const ranked = [...place('busiest'), ...place('second'), ...others];
  const tailWeight = (rank: number): number => 1 / (rank - TOP_SHARES.length + 1);
  let tailSum = 0;
  for (let rank = TOP_SHARES.length; rank < ranked.length; rank += 1) tailSum += tailWeight(rank);
  const weights = ranked.map(
    (_, rank) => TOP_SHARES[rank] ?? (TAIL_SHARE * tailWeight(rank)) / tailSum,
  );
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);

  const counts = drafts.map(() => 0);
  let assigned = 0;
  ranked.forEach((contract, rank) => {
    const count = Math.floor((total * (weights[rank] ?? 0)) / weightSum);
    counts[contract] = count;
    assigned += count;
  });
  const busiest = ranked[0];
  if (busiest !== undefined) counts[busiest] = (counts[busiest] ?? 0) + total - assigned;
  return counts;
}

interface History {
  time: Uint32Array;
  token: Uint32Array;
  from: Int32Array;
  to: Int32Array;
  kind: Uint8Array;
  /** Number of the first event of the transaction: a batch mint shares one transaction. */
  transaction: Uint32Array;
  tokenContract: Uint16Array;
  tokenIds: bigint[];
  tokenMaps: Map<bigint, number>[];
}

/**
 * Plays each contract's life forward in time, so every token's history is coherent: minted
 * first, then moved by whoever holds it, possibly burned last.
 */
function simulate(
  seed: number,
  drafts: ContractDraft[],
  counts: number[],
  walletCount: number,
): History {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const history: History = {
    time: new Uint32Array(total),
    token: new Uint32Array(total),
    from: new Int32Array(total),
    to: new Int32Array(total),
    kind: new Uint8Array(total),
    transaction: new Uint32Array(total),
    tokenContract: new Uint16Array(total),
    tokenIds: [],
    tokenMaps: [],
  };
  const holder = new Int32Array(total);
  let seq = 0;

  drafts.forEach((draft, contract) => {
    const random = createRandom(seed, SALT.simulation, contract);
    const count = counts[contract] ?? 0;
    const times = activityTimes(random, count, draft.indexedAt, activeUntil(random, draft));
    const forced = draft.forcedMint ? placeAt(times, draft.forcedMint.timestamp) : -1;
    const ids = new Map<bigint, number>();
    history.tokenMaps.push(ids);
    const live: number[] = [];
    let minted = 0n;

    const wallet = (): number => Math.floor(walletCount * random.float() ** 2);
    const walletOtherThan = (current: number): number => {
      const next = wallet();
      return next === current ? (next + 1) % walletCount : next;
    };
    const newTokenId = (): bigint => {
      for (;;) {
        const style = draft.tokenIds;
        const id =
          style.kind === 'sequential' ? style.first + minted++ : randomBits(random, style.bits);
        if (!ids.has(id) && id !== draft.forcedMint?.tokenId) return id;
      }
    };
    const record = (
      step: number,
      kind: number,
      token: number,
      from: number,
      to: number,
      transaction: number,
    ): void => {
      history.time[seq] = times[step] ?? 0;
      history.kind[seq] = kind;
      history.token[seq] = token;
      history.from[seq] = from;
      history.to[seq] = to;
      history.transaction[seq] = transaction;
      holder[token] = to;
      seq += 1;
    };

    const mint = (step: number, id: bigint, to: number, transaction: number): void => {
      const token = history.tokenIds.length;
      history.tokenIds.push(id);
      history.tokenContract[token] = contract;
      ids.set(id, token);
      live.push(token);
      record(step, MINT, token, NOBODY, to, transaction);
    };

    for (let step = 0; step < count;) {
      if (step === forced && draft.forcedMint) {
        mint(step, draft.forcedMint.tokenId, wallet(), seq);
        step += 1;
      } else if (live.length === 0 || random.chance(mintChance(draft.type, step / count))) {
        // A batch mints to one wallet in one transaction, at one time, and stops short of
        // the forced mint so that keeps its exact time.
        const room = (forced > step ? forced : count) - step;
        const batch = Math.min(room, random.chance(0.15) ? 2 + random.int(5) : 1);
        const to = wallet();
        const transaction = seq;
        for (let n = 0; n < batch; n += 1) {
          times[step + n] = times[step] ?? 0;
          mint(step + n, newTokenId(), to, transaction);
        }
        step += batch;
      } else {
        const slot = random.int(live.length);
        const token = live[slot] ?? 0;
        const from = holder[token] ?? 0;
        const draw = random.float();
        if (draw < 0.03) {
          live[slot] = live[live.length - 1] ?? 0;
          live.pop();
          record(step, BURN, token, from, NOBODY, seq);
        } else {
          record(step, draw < 0.48 ? SALE : TRANSFER, token, from, walletOtherThan(from), seq);
        }
        step += 1;
      }
    }
  });
  return history;
}

function mintChance(type: ContractType, progress: number): number {
  // Collections mint most early on; ERC1155 lots change hands more than they are minted.
  return type === 'ERC721' ? 0.12 + 0.5 * (1 - progress) : 0.08 + 0.3 * (1 - progress);
}

/** The busiest contracts stay active to the end; others may have gone quiet earlier. */
function activeUntil(random: Random, draft: ContractDraft): number {
  if (draft.role !== 'any' || random.chance(0.6)) return TIMELINE.end;
  const life = (TIMELINE.end - draft.indexedAt) * (0.2 + 0.8 * random.float());
  return draft.indexedAt + Math.max(86_400, Math.floor(life));
}

/** `count` ascending unix times in [from, to): a Poisson process, built without sorting. */
function activityTimes(random: Random, count: number, from: number, to: number): Uint32Array {
  const arrivals = new Float64Array(count + 1);
  let elapsed = 0;
  for (let n = 0; n <= count; n += 1) {
    elapsed -= Math.log(1 - random.float());
    arrivals[n] = elapsed;
  }
  const times = new Uint32Array(count);
  for (let n = 0; n < count; n += 1) {
    times[n] = from + Math.floor(((arrivals[n] ?? 0) / elapsed) * (to - from));
  }
  return times;
}

/** Moves one of the times onto `time`, keeping the order; returns its position. */
function placeAt(times: Uint32Array, time: number): number {
  if (times.length === 0) return -1;
  const after = times.findIndex((candidate) => candidate >= time);
  const position = after === -1 ? times.length - 1 : after;
  times[position] = time;
  return position;
}

function randomBits(random: Random, bits: 64 | 256): bigint {
  let hex = '';
  for (let n = 0; n < bits / 32; n += 1) hex += random.u32().toString(16).padStart(8, '0');
  return BigInt(`0x${hex}`);
}

/** Each token's event numbers, grouped by token (a counting sort, so still in time order). */
function tokenEventIndex(
  tokenOf: Uint32Array,
  tokenCount: number,
): { start: Uint32Array; seqs: Uint32Array } {
  const start = new Uint32Array(tokenCount + 1);
  for (const token of tokenOf) start[token + 1] = (start[token + 1] ?? 0) + 1;
  for (let token = 0; token < tokenCount; token += 1) {
    start[token + 1] = (start[token + 1] ?? 0) + (start[token] ?? 0);
  }
  const next = start.slice(0, tokenCount);
  const seqs = new Uint32Array(tokenOf.length);
  tokenOf.forEach((token, seq) => {
    const slot = next[token] ?? 0;
    seqs[slot] = seq;
    next[token] = slot + 1;
  });
  return { start, seqs };
}
