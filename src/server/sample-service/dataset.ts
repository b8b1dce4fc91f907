import {
  TIMELINE,
  draftContracts,
  rankedByRole,
  type ContractDraft,
  type ContractType,
} from './catalogue';
import {
  NOBODY,
  SALT,
  eventIdOf,
  saleOf,
  tokenQuantity,
  transactionHashOf,
  walletAddress,
} from './derived';
import type { Contract, EventKind, EventSource, Sale, Token } from './event-source';
import { createRandom, type Random } from './random';
import { DAY, HOUR } from '../../lib/utc';

/**
 * The sample data: contracts and a simulated history of their tokens.
 *
 * 320,000 events with six 64-digit strings each would take hundreds of megabytes, so events
 * live in typed-array columns and their hashes (transaction hash, event id) and sale details
 * are derived from the event's number when a record is built. Events added while the service
 * runs (live arrivals, a few a minute) are appended after the generated ones.
 */

export interface DatasetOptions {
  seed?: number;
  contracts?: number;
  events?: number;
  /**
   * Unix seconds the generated timeline ends at: every time is shifted by
   * `anchor - TIMELINE.end`. Default `TIMELINE.end`, so data never depends on the clock;
   * a running service passes `startAnchor()`.
   */
  anchor?: number;
}

export const DEFAULT_DATASET_SIZE = { seed: 1, contracts: 50, events: 320_000 } as const;

/**
 * A service's anchor: its start time rounded down to the hour, so a seed gives the same data
 * all that hour.
 */
export function startAnchor(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / HOUR) * HOUR;
}

/** Anchors that keep every time of the timeline, and ten years of live arrivals, in 32 bits. */
export const ANCHOR_RANGE = {
  min: TIMELINE.end - TIMELINE.start,
  max: 0xffff_ffff - 10 * 365 * DAY,
};

/** The in-memory data: every event generated up front, and events added while it serves. */
export interface Dataset extends EventSource {
  /** Events so far: the generated ones, then any added since. */
  readonly eventCount: number;
  readonly tokenCount: number;
  /** Wallets are numbered 0 … walletCount - 1; -1 stands for the zero address. */
  readonly walletCount: number;
  token(index: number): Token;
  /** The numbers of a token's events in the order they happened: mint first. */
  tokenEvents(token: Token): Uint32Array;
  timestamp(seq: number): number;
  /** The wallet holding a token now; -1 once it is burned. */
  holder(token: Token): number;
  /** Adds a mint of a new token at `timestamp`, which must not be older than any event so far. */
  addMint(contract: Contract, to: number, timestamp: number, random: Random): Token;
  /** Adds a transfer or sale of a token its holder still has, to wallet `to`. */
  addMove(token: Token, kind: 'transfer' | 'sale', to: number, timestamp: number): void;
}

/** Options with their defaults, checked: non-negative integers, an anchor in its range. */
export function checkedSize(
  options: DatasetOptions,
  defaults: { seed: number; contracts: number; events: number },
): Required<DatasetOptions> {
  // An option given as undefined takes its default too.
  const size = {
    seed: options.seed ?? defaults.seed,
    contracts: options.contracts ?? defaults.contracts,
    events: options.events ?? defaults.events,
    anchor: options.anchor ?? TIMELINE.end,
  };
  for (const [name, value] of Object.entries(size)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`${name} must be a non-negative integer`);
    }
  }
  if (size.anchor < ANCHOR_RANGE.min || size.anchor > ANCHOR_RANGE.max) {
    throw new RangeError(
      `anchor must be unix seconds from ${ANCHOR_RANGE.min} to ${ANCHOR_RANGE.max}`,
    );
  }
  return size;
}

const KINDS: readonly EventKind[] = ['mint', 'transfer', 'sale', 'burn'];
const [MINT, TRANSFER, SALE, BURN] = [0, 1, 2, 3] as const;
/** Shares of all events for the busiest three contracts; the rest follow a 1/rank tail. */
const TOP_SHARES = [0.35, 0.315, 0.3125];
const TAIL_SHARE = 1 - TOP_SHARES.reduce((sum, share) => sum + share, 0);

export function generateDataset(options: DatasetOptions = {}): Dataset {
  const {
    seed,
    contracts: contractCount,
    events,
    anchor,
  } = checkedSize(options, DEFAULT_DATASET_SIZE);
  // Tokens record their contract in 16 bits.
  if (contractCount > 0xffff) throw new RangeError('contracts must be at most 65535');
  const shift = anchor - TIMELINE.end;
  const drafts = draftContracts(seed, contractCount);
  const counts = eventCounts(seed, drafts, events);
  const wallets = Array.from({ length: Math.min(20_000, Math.max(64, events >> 4)) }, (_, n) =>
    walletAddress(seed, n),
  );
  const history = simulate(seed, drafts, counts, wallets.length);
  for (let seq = 0; seq < history.time.length; seq += 1) {
    history.time[seq] = (history.time[seq] ?? 0) + shift;
  }

  let firstEvent = 0;
  const contracts: Contract[] = drafts.map((draft, index) => {
    const { address, type, name, symbol, image, imageRegistered, tokenIds } = draft;
    const contract = { index, address, type, name, symbol, image, imageRegistered, tokenIds };
    const eventCount = counts[index] ?? 0;
    firstEvent += eventCount;
    return {
      ...contract,
      indexedAt: draft.indexedAt + shift,
      firstEvent: firstEvent - eventCount,
      eventCount,
    };
  });
  const byAddress = new Map(contracts.map((contract) => [contract.address, contract]));
  const byToken = tokenEventIndex(history.token, history.tokenIds.length);
  const generated = history.time.length;
  const generatedTokens = history.tokenIds.length;
  const added = createAddedEvents(contracts.length);

  const at = <T>(items: ArrayLike<T>, index: number): T => {
    const item = items[index];
    if (item === undefined) throw new RangeError(`no item ${index}`);
    return item;
  };
  /** A column of the generated events, continued by the added ones. */
  const column =
    (base: ArrayLike<number>, extra: number[]) =>
    (seq: number): number =>
      seq < generated ? at(base, seq) : at(extra, seq - generated);
  const timeOf = column(history.time, added.time);
  const tokenOf = column(history.token, added.token);
  const kindOf = column(history.kind, added.kind);
  const fromOf = column(history.from, added.from);
  const toOf = column(history.to, added.to);
  const transactionOf = column(history.transaction, added.transaction);
  const addedToken = (index: number): { contract: number; holder: number } => {
    const found = added.tokens.get(index);
    if (found === undefined) throw new RangeError(`no token ${index}`);
    return found;
  };
  const contractOfToken = (index: number): number =>
    index < generatedTokens ? at(history.tokenContract, index) : addedToken(index).contract;

  const token = (index: number): Token => {
    const contract = at(contracts, contractOfToken(index));
    const quantity = tokenQuantity(seed, contract.type, index);
    return { index, contract, id: at(history.tokenIds, index), quantity };
  };
  const address = (wallet: number): string =>
    wallet === NOBODY ? walletAddress(seed, NOBODY) : at(wallets, wallet);
  const eventId = (seq: number): string => eventIdOf(seed, seq);
  const sale = (seq: number): Sale | null =>
    kindOf(seq) === SALE ? saleOf(seed, seq, timeOf(seq), token(tokenOf(seq))) : null;
  const holderOf = (index: number): number =>
    index < generatedTokens ? at(history.holder, index) : addedToken(index).holder;
  const setHolder = (index: number, wallet: number): void => {
    if (index < generatedTokens) history.holder[index] = wallet;
    else addedToken(index).holder = wallet;
  };
  // A contract's list is in event-number order, which must stay time order.
  const append = (tokenIndex: number, kind: number, from: number, to: number, time: number) => {
    const seq = generated + added.time.length;
    if (time < (added.time.at(-1) ?? anchor)) {
      throw new RangeError(
        'an added event cannot be older than the timeline or the last one added',
      );
    }
    added.time.push(time);
    added.token.push(tokenIndex);
    added.kind.push(kind);
    added.from.push(from);
    added.to.push(to);
    added.transaction.push(seq);
    added.byContract[contractOfToken(tokenIndex)]?.push(seq);
    const ofToken = added.byToken.get(tokenIndex) ?? [];
    ofToken.push(seq);
    added.byToken.set(tokenIndex, ofToken);
    setHolder(tokenIndex, to);
  };

  return {
    seed,
    anchor,
    contracts,
    get eventCount() {
      return generated + added.time.length;
    },
    get tokenCount() {
      return history.tokenIds.length;
    },
    walletCount: wallets.length,
    contractByAddress: (canonicalAddress) => byAddress.get(canonicalAddress),
    token,
    findToken: (contract, id) => {
      const index = history.tokenMaps[contract.index]?.get(id);
      return index === undefined ? undefined : token(index);
    },
    tokenEvents: (of) => {
      const generatedSeqs =
        of.index < generatedTokens
          ? byToken.seqs.subarray(at(byToken.start, of.index), at(byToken.start, of.index + 1))
          : new Uint32Array(0);
      const extra = added.byToken.get(of.index);
      if (!extra) return generatedSeqs;
      const all = new Uint32Array(generatedSeqs.length + extra.length);
      all.set(generatedSeqs);
      all.set(extra, generatedSeqs.length);
      return all;
    },
    addedEvents: (contract) => added.byContract[contract.index] ?? [],
    event: (seq) => ({
      seq,
      token: token(tokenOf(seq)),
      kind: at(KINDS, kindOf(seq)),
      timestamp: timeOf(seq),
      fromAddress: address(fromOf(seq)),
      toAddress: address(toOf(seq)),
      transactionHash: transactionHashOf(seed, transactionOf(seq)),
      eventId: eventId(seq),
      sale: sale(seq),
    }),
    kind: (seq) => at(KINDS, kindOf(seq)),
    timestamp: timeOf,
    eventId,
    sale,
    holder: (of) => holderOf(of.index),
    addMint: (contract, to, timestamp, random) => {
      const ids = history.tokenMaps[contract.index];
      if (!ids) throw new RangeError(`no contract ${contract.index}`);
      const style = contract.tokenIds;
      let id: bigint;
      do {
        const minted = history.minted[contract.index] ?? 0;
        history.minted[contract.index] = minted + 1;
        id =
          style.kind === 'sequential'
            ? style.first + BigInt(minted)
            : randomBits(random, style.bits);
      } while (ids.has(id));
      const index = history.tokenIds.length;
      history.tokenIds.push(id);
      added.tokens.set(index, { contract: contract.index, holder: to });
      ids.set(id, index);
      append(index, MINT, NOBODY, to, timestamp);
      return token(index);
    },
    addMove: (of, kind, to, timestamp) => {
      const from = holderOf(of.index);
      if (from === NOBODY) throw new RangeError('a burned token cannot move');
      append(of.index, kind === 'sale' ? SALE : TRANSFER, from, to, timestamp);
    },
  };
}

/** The columns of events added after generation, and their indexes; small, so plain arrays. */
function createAddedEvents(contractCount: number) {
  return {
    time: [] as number[],
    token: [] as number[],
    kind: [] as number[],
    from: [] as number[],
    to: [] as number[],
    transaction: [] as number[],
    byContract: Array.from({ length: contractCount }, () => [] as number[]),
    byToken: new Map<number, number[]>(),
    /** Tokens minted after generation, by token index. */
    tokens: new Map<number, { contract: number; holder: number }>(),
  };
}

/** Power-law activity: three contracts take most events, idle ones get none. */
function eventCounts(seed: number, drafts: readonly ContractDraft[], total: number): number[] {
  const random = createRandom(seed, 0x5ca1e);
  const ranked = rankedByRole(random, drafts);
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
  /** Who holds each token at the end (NOBODY once burned). */
  holder: Int32Array;
  /** Sequential ids used so far, per contract: the next mint continues from there. */
  minted: number[];
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
    holder: new Int32Array(total),
    minted: [],
  };
  const holder = history.holder;
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
    history.minted.push(Number(minted));
  });
  // Sized for the events while simulating; only the tokens' part is kept.
  history.holder = holder.slice(0, history.tokenIds.length);
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
  return draft.indexedAt + Math.max(DAY, Math.floor(life));
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
