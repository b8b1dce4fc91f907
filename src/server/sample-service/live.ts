import type { Dataset } from './dataset';
import type { Contract, Token } from './event-source';
import { createRandom } from './random';

/**
 * New events arriving while the service runs, as on the real service: a handful a minute
 * on a few busy contracts (mints, transfers, sales), with the current time. They are newer
 * than everything before them, so they join the head of their contract's list: a walk
 * already past the head neither sees them nor loses anything.
 */

/** Between arrivals: 6 to 18 seconds, about five a minute. */
const GAP_MS = { min: 6_000, max: 18_000 } as const;
/** Contracts that receive arrivals: the busiest ones. */
const LIVE_CONTRACTS = 3;
const SALT = 0x11fe;

export interface LiveArrivals {
  stop(): void;
}

/** What one arrival added: its contract and token, now the newest event of both. */
export interface Arrival {
  contract: Contract;
  token: Token;
  kind: 'mint' | 'transfer' | 'sale';
  timestamp: number;
}

/** Starts adding events to `dataset` on a timer (which never keeps the process alive). */
export function startLiveArrivals(dataset: Dataset): LiveArrivals {
  const arrivals = createArrivals(dataset);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = arrivals.contracts.length === 0;
  const schedule = (): void => {
    if (stopped) return;
    const gap = GAP_MS.min + arrivals.random.int(GAP_MS.max - GAP_MS.min);
    timer = setTimeout(() => {
      arrivals.arrive();
      schedule();
    }, gap);
    timer.unref?.();
  };
  schedule();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * The arrivals themselves, one at a time when asked: the timer above, or a browser test
 * or benchmark that wants the next one now rather than in 6 to 18 seconds.
 */
export function createArrivals(dataset: Dataset) {
  const random = createRandom(dataset.seed, SALT);
  const contracts = [...dataset.contracts]
    .filter((contract) => contract.eventCount > 0)
    .sort((a, b) => b.eventCount - a.eventCount)
    .slice(0, LIVE_CONTRACTS);

  const wallet = (): number => Math.floor(dataset.walletCount * random.float() ** 2);
  const walletOtherThan = (current: number): number => {
    const next = wallet();
    return next === current ? (next + 1) % dataset.walletCount : next;
  };
  /** A token of the contract that still exists, from its recent events. */
  const liveToken = (contract: Contract): Token | undefined => {
    const added = dataset.addedEvents(contract);
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const recent = Math.min(contract.eventCount, 500);
      const pick = random.int(recent + added.length);
      const seq =
        pick < added.length
          ? (added[pick] ?? 0)
          : contract.firstEvent + contract.eventCount - 1 - (pick - added.length);
      const token = dataset.event(seq).token;
      if (dataset.holder(token) !== -1) return token;
    }
    return undefined;
  };

  /**
   * Adds the next event, to `to` if named (else one of the busiest); undefined when there
   * is no contract with events.
   */
  const arrive = (to?: Contract): Arrival | undefined => {
    if (contracts.length === 0 && to === undefined) return undefined;
    const contract = to ?? random.pick(contracts);
    // Never older than the timeline or the last event added, whatever the clock does (the
    // last event of all is the newest added one, or a generated one of the anchor's time).
    const last = dataset.eventCount > 0 ? dataset.timestamp(dataset.eventCount - 1) : 0;
    const timestamp = Math.max(Math.floor(Date.now() / 1000), dataset.anchor, last);
    const token = random.chance(0.2) ? undefined : liveToken(contract);
    if (token === undefined) {
      return {
        contract,
        token: dataset.addMint(contract, wallet(), timestamp, random),
        kind: 'mint',
        timestamp,
      };
    }
    const kind = random.chance(0.55) ? 'sale' : 'transfer';
    dataset.addMove(token, kind, walletOtherThan(dataset.holder(token)), timestamp);
    return { contract, token, kind, timestamp };
  };
  return { contracts, random, arrive };
}
