import type pg from 'pg';
import type { WalkProgress } from '../../lib/answers';
import type { EventStore, ListSpec } from '../store/event-store';
import { contractEventsPath, tokenEventsPath } from '../index/list-path';

/**
 * The indexer: reads what the index's answers need from the upstream, through the event
 * store (so within the shared budget and fair share, one reader per list for every
 * server), and the store's commits feed the index (see index/ingest.ts).
 * - `whole(contract)`: a contract's whole history, page after page, once for every
 *   visitor (a question that needs it starts it; others join it).
 * - `head(contract)`: its newest records, at most every STORE_HEAD_SECONDS while visited.
 * - `token(contract, id)`: a token's own list (it has the burns a contract's lacks).
 * - in the background, with a share of the budget: the contracts list, then every
 *   contract's history, then heads round robin.
 * A walk that brings no new record for `maxIdlePages` pages in a row (an upstream whose
 * cursor loops, or that sends empty pages for ever) stops and is recorded as an upstream
 * fault, so the budget is not spent on it.
 */

export interface IndexerOptions<F> {
  store: EventStore<F>;
  pool: pg.Pool;
  /** The failure in words (which side failed and why). */
  describe: (failure: F) => string;
  /** Upstream requests a second the background may spend (0: no background work). */
  backgroundRate: number;
  /** Whether the month's upstream requests leave room for background work. */
  quotaAllows?: () => boolean;
  maxIdlePages?: number;
  log?: (message: string) => void;
  now?: () => number;
}

const INDEXER_CLIENT = 'indexer';
const BACKGROUND_CLIENT = 'indexer-background';
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
const CONTRACTS: ListSpec = { path: '/v1/contracts', order: 'stable', identity: 'contract' };

export const contractSpec = (contract: string): ListSpec => ({
  path: contractEventsPath(contract),
  order: 'newest-first',
  identity: 'event',
});
export const tokenSpec = (contract: string, tokenId: string): ListSpec => ({
  path: tokenEventsPath(contract, tokenId),
  order: 'stable',
  identity: 'event',
});

export function createIndexer<F>(options: IndexerOptions<F>) {
  const { store, pool, describe, now = Date.now, maxIdlePages = 50 } = options;
  const walks = new Map<string, { progress: WalkProgress; done: Promise<void> }>();
  const heads = new Map<string, Promise<void>>();
  let stopped = false;
  const sleeping = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleeping.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleeping.add(wake);
    });

  const setUpstreamState = (contract: string, failure: string | null) =>
    pool
      .query(
        `UPDATE idx_contracts SET upstream_failure = $2,
           upstream_failure_at = CASE WHEN $2::text IS NULL THEN NULL ELSE $3::bigint END
         WHERE address = $1`,
        [contract, failure, now()],
      )
      .then(
        () => undefined,
        () => undefined,
      );

  const recordFault = (contract: string, fault: string | null) =>
    pool
      .query('UPDATE idx_contracts SET walk_fault = $2 WHERE address = $1', [contract, fault])
      .then(
        () => undefined,
        () => undefined,
      );

  /** Reads a whole list to its end; resolves when done, failed or stopped. */
  async function walk(
    spec: ListSpec,
    progress: WalkProgress,
    client: string,
    pace?: (reads: number) => Promise<void>,
    contract?: string,
  ) {
    let idle = 0;
    let lastNext = -1;
    let attempt = 0;
    for (;;) {
      if (stopped) {
        progress.state = 'stopped';
        return;
      }
      const step = await store.deeper(spec, client, true);
      if (step.kind === 'failed') {
        const reason = describe(step.failure);
        if (contract) await setUpstreamState(contract, reason);
        if (attempt >= RETRY_MS.length) {
          progress.state = 'failed';
          progress.failure = reason;
          return;
        }
        await sleep(RETRY_MS[attempt++]!);
        continue;
      }
      attempt = 0;
      progress.pages += step.reads;
      const elapsed = (now() - progress.startedAt) / 1000;
      progress.pagesPerSecond = elapsed > 0 ? progress.pages / elapsed : 0;
      if (step.meta.complete) {
        progress.state = 'done';
        if (contract) await recordFault(contract, null);
        return;
      }
      const count = step.meta.next - step.meta.first;
      idle = count === lastNext ? idle + step.reads : 0;
      lastNext = count;
      if (idle >= maxIdlePages) {
        progress.state = 'failed';
        progress.failure =
          `The Token Events Service sent ${idle} pages in a row without a new record; ` +
          'reading this list was stopped so as not to spend the request budget on it.';
        if (contract) await recordFault(contract, progress.failure);
        options.log?.(`indexer: ${spec.path}: ${progress.failure}`);
        return;
      }
      if (pace) await pace(step.reads);
    }
  }

  function whole(
    contract: string,
    client = INDEXER_CLIENT,
    pace?: (reads: number) => Promise<void>,
  ) {
    const running = walks.get(contract);
    if (running && running.progress.state === 'reading') return running;
    const progress: WalkProgress = {
      state: 'reading',
      startedAt: now(),
      pages: 0,
      pagesPerSecond: 0,
    };
    const done = walk(contractSpec(contract), progress, client, pace, contract).catch((error) => {
      progress.state = 'failed';
      progress.failure = error instanceof Error ? error.message : String(error);
    });
    const entry = { progress, done };
    walks.set(contract, entry);
    return entry;
  }

  /** Reads a contract's head when due; one at a time per contract; never throws. */
  function head(contract: string, client = INDEXER_CLIENT): Promise<void> {
    const running = heads.get(contract);
    if (running) return running;
    const done = store
      .refresh(contractSpec(contract), client)
      .then((step) =>
        setUpstreamState(contract, step.kind === 'failed' ? describe(step.failure) : null),
      )
      .catch(() => {})
      .finally(() => heads.delete(contract));
    heads.set(contract, done);
    return done;
  }

  /** Reads a token's own list to its end (it is short); the failure in words, if any. */
  async function token(contract: string, tokenId: string): Promise<string | null> {
    const progress: WalkProgress = {
      state: 'reading',
      startedAt: now(),
      pages: 0,
      pagesPerSecond: 0,
    };
    const spec = tokenSpec(contract, tokenId);
    const first = await store.refresh(spec, INDEXER_CLIENT);
    if (first.kind === 'failed') return describe(first.failure);
    await walk(spec, progress, INDEXER_CLIENT);
    return progress.failure ?? null;
  }

  /** Reads the contracts list to its end; the contracts it names, unfinished ones first. */
  async function listed(client = INDEXER_CLIENT, pace?: (reads: number) => Promise<void>) {
    const progress: WalkProgress = {
      state: 'reading',
      startedAt: now(),
      pages: 0,
      pagesPerSecond: 0,
    };
    await store.refresh(CONTRACTS, client).catch(() => undefined);
    await walk(CONTRACTS, progress, client, pace);
    const { rows } = await pool
      .query<{ address: string; complete: boolean }>(
        'SELECT address, complete FROM idx_contracts WHERE listed ORDER BY complete, id',
      )
      .catch(() => ({ rows: [] as { address: string; complete: boolean }[] }));
    return rows;
  }

  /** Background: the contracts list, each contract's history, then heads round robin. */
  async function background() {
    const interval = 1000 / options.backgroundRate;
    const pace = async (reads: number) => {
      while (options.quotaAllows && !options.quotaAllows() && !stopped) await sleep(60_000);
      if (reads > 0) await sleep(reads * interval);
    };
    while (!stopped) {
      const rows = await listed(BACKGROUND_CLIENT, pace);
      for (const row of rows) {
        if (stopped) return;
        if (!row.complete) await whole(row.address, BACKGROUND_CLIENT, pace).done;
        else {
          await head(row.address, BACKGROUND_CLIENT);
          await pace(1);
        }
      }
      await sleep(rows.length === 0 ? 5_000 : interval);
    }
  }

  let backgroundDone: Promise<void> | undefined;

  return {
    whole,
    head,
    token,
    listed,
    /** One upstream page deeper into a contract's history (newest-first browsing). */
    deeper: (contract: string) => store.deeper(contractSpec(contract), INDEXER_CLIENT),
    progress: (contract: string): WalkProgress | undefined => walks.get(contract)?.progress,
    /** Starts the background work, when it has a share of the budget. */
    start() {
      if (options.backgroundRate > 0 && !backgroundDone) {
        backgroundDone = background().catch((error) =>
          options.log?.(`indexer: background work stopped: ${String(error)}`),
        );
      }
    },
    /** Stops all work; waits at most `waitMs` for reads in flight to end. */
    async stop(waitMs = 2_000) {
      stopped = true;
      for (const wake of sleeping) wake();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([backgroundDone, ...[...walks.values()].map((walk) => walk.done)]),
        new Promise((resolve) => (timer = setTimeout(resolve, waitMs))),
      ]);
      clearTimeout(timer);
    },
  };
}

export type Indexer = ReturnType<typeof createIndexer>;
