import type pg from 'pg';
import type { WalkProgress } from '../../lib/answers';
import { contractEventsPath, tokenEventsPath } from '../index/list-path';
import type { ListReader, ListSpec, Step } from '../log/list-reader';

/**
 * The indexer: reads what the index's answers need from the service into the record log
 * (list-reader.ts), within the shared budget and fair share, one reader per list for every
 * server; the log's commits feed the index (index/ingest.ts).
 * - `whole(contract)`: a listed contract's whole history, once for every visitor and for
 *   good (a question that needs it starts it; others join it).
 * - `head(contract)`: its newest records, at most every head interval while visited.
 * - `token(contract, id)`: a token's own list (it has the burns a contract's lacks).
 * - `listing(contract)`: whether the service lists the contract; only those are walked.
 * - in the background, with a share of the budget: the contracts list, then every
 *   contract's history, then heads round robin; and beside it, with a smaller share, the
 *   verification pass (each whole history read again every `verifyEveryMs`).
 */
export interface IndexerOptions<F> {
  reader: ListReader<F>;
  pool: pg.Pool;
  /** The failure in words (which side failed and why). */
  describe: (failure: F) => string;
  /** Failures worth no retry (the key refused): a walk stops at once. */
  permanent?: (failure: F) => boolean;
  /** Failures of one visitor's, not the service's (its daily share spent): not said as the collection's. */
  personal?: (failure: F) => boolean;
  /** Upstream requests a second the background may spend (0: no background work). */
  backgroundRate: number;
  /** Upstream requests a second the verification pass may spend (0: none). */
  verifyRate?: number;
  /** How often each whole history is verified. */
  verifyEveryMs?: number;
  /** Whether the month's upstream requests leave room for background work. */
  quotaAllows?: () => boolean;
  log?: (message: string) => void;
  now?: () => number;
  /** A verification pass ended: what it read and found. */
  verified?: (
    path: string,
    found: { pages: number; added: number; changed: number; removed: number },
  ) => void;
}

export type Listing = 'listed' | 'not-listed' | 'unknown';

const INDEXER_CLIENT = 'indexer';
const BACKGROUND_CLIENT = 'indexer-background';
const VERIFY_CLIENT = 'indexer-verify';
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
// An address not in the contracts list makes it read again at most this often.
const RELIST_MS = 60_000;
export const DEFAULT_VERIFY_EVERY_MS = 30 * 24 * 3_600_000;
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
  const { reader, pool, describe, now = Date.now, permanent = () => false } = options;
  const personal = options.personal ?? (() => false);
  const verifyEveryMs = options.verifyEveryMs ?? DEFAULT_VERIFY_EVERY_MS;
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
           upstream_failure_at = CASE WHEN $2::text IS NULL THEN NULL
             ELSE coalesce(upstream_failure_at, $3::bigint) END
         WHERE address = $1`,
        [contract, failure, now()],
      )
      .then(
        () => undefined,
        () => undefined,
      );

  const newProgress = (): WalkProgress => ({
    state: 'reading',
    startedAt: now(),
    pages: 0,
    pagesPerSecond: 0,
  });

  /** Reads a whole list to its end; resolves when done, failed or stopped. */
  async function walk(
    spec: ListSpec,
    progress: WalkProgress,
    client: string,
    pace?: (reads: number) => Promise<void>,
    contract?: string,
  ) {
    let attempt = 0;
    for (;;) {
      if (stopped) {
        progress.state = 'stopped';
        return;
      }
      let step: Step<F>;
      try {
        step = await reader.deeper(spec, client, true);
      } catch (error) {
        // The database failed (full, down): said in coverage by the server's faults.
        progress.state = 'failed';
        progress.failure = error instanceof Error ? error.message : String(error);
        return;
      }
      if (step.kind === 'failed') {
        const reason = describe(step.failure);
        if (contract) await setUpstreamState(contract, reason);
        if (attempt >= RETRY_MS.length || permanent(step.failure)) {
          progress.state = 'failed';
          progress.failure = reason;
          return;
        }
        await sleep(RETRY_MS[attempt++]!);
        continue;
      }
      if (attempt > 0 && contract) await setUpstreamState(contract, null);
      attempt = 0;
      progress.pages += step.reads;
      const elapsed = (now() - progress.startedAt) / 1000;
      progress.pagesPerSecond = elapsed > 0 ? progress.pages / elapsed : 0;
      if (step.state.fault) {
        progress.state = 'failed';
        progress.failure = step.state.fault;
        return;
      }
      if (step.state.complete) {
        progress.state = 'done';
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
    const progress = newProgress();
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
    const done = reader
      .head(contractSpec(contract), client)
      .then((step) => {
        if (step.kind === 'failed' && personal(step.failure)) return;
        return setUpstreamState(contract, step.kind === 'failed' ? describe(step.failure) : null);
      })
      .catch(() => {})
      .finally(() => heads.delete(contract));
    heads.set(contract, done);
    return done;
  }

  /** Reads a token's own list when due (it is short); the failure in words, if any. */
  async function token(contract: string, tokenId: string, client = INDEXER_CLIENT) {
    const step = await reader.head(tokenSpec(contract, tokenId), client);
    if (step.kind === 'failed') return describe(step.failure);
    return step.state.fault;
  }

  let listing: Promise<unknown> | null = null;
  /** Reads the contracts list when due, once for every caller at a time. */
  const readListing = (client = INDEXER_CLIENT) =>
    (listing ??= reader
      .head(CONTRACTS, client)
      .catch(() => undefined)
      .finally(() => (listing = null)));

  /** The contracts the list names, unfinished ones first (the list read when due). */
  async function listed(client = INDEXER_CLIENT) {
    await readListing(client);
    const { rows } = await pool
      .query<{ address: string; complete: boolean }>(
        'SELECT address, complete FROM idx_contracts WHERE listed ORDER BY complete, id',
      )
      .catch(() => ({ rows: [] as { address: string; complete: boolean }[] }));
    return rows;
  }

  const isListed = async (contract: string) => {
    const { rows } = await pool.query<{ listed: boolean }>(
      'SELECT listed FROM idx_contracts WHERE address = $1',
      [contract],
    );
    return rows[0]?.listed === true;
  };

  /**
   * Whether the service lists the contract: only those are walked, so an address typed
   * at random costs no walk. Unknown here, the contracts list is read again (at most every
   * RELIST_MS, once for every caller); `unknown` while it cannot be read whole.
   */
  async function listingOf(contract: string): Promise<Listing> {
    if (await isListed(contract)) return 'listed';
    let list = await reader.state(CONTRACTS.path);
    if (!list?.complete || now() - list.headCheckedAt >= RELIST_MS) {
      await readListing();
      list = await reader.state(CONTRACTS.path);
    }
    // Asked again after the list's state was read: a listing committed since the first
    // question (another request's, another server's) is seen, never taken for a whole list
    // without the contract.
    if (await isListed(contract)) return 'listed';
    return list?.complete ? 'not-listed' : 'unknown';
  }

  /** As `listingOf`, from what is stored alone: the contracts list is never read for it. */
  async function storedListing(contract: string): Promise<Listing> {
    if (await isListed(contract)) return 'listed';
    const list = await reader.state(CONTRACTS.path);
    return list?.complete ? 'not-listed' : 'unknown';
  }

  const waitForQuota = async () => {
    while (options.quotaAllows && !options.quotaAllows() && !stopped) await sleep(60_000);
  };

  /** Background: the contracts list, each contract's history, then heads round robin. */
  async function background() {
    const interval = 1000 / options.backgroundRate;
    const pace = async (reads: number) => {
      await waitForQuota();
      if (reads > 0) await sleep(reads * interval);
    };
    while (!stopped) {
      await waitForQuota();
      const rows = await listed(BACKGROUND_CLIENT);
      for (const row of rows) {
        if (stopped) return;
        if (!row.complete) {
          const walked = whole(row.address, BACKGROUND_CLIENT, pace);
          await walked.done;
          // A walk that failed at once still takes its turn of the background's rate.
          if (walked.progress.state === 'failed') await pace(1);
        } else {
          await head(row.address, BACKGROUND_CLIENT);
          await pace(1);
        }
      }
      await sleep(rows.length === 0 ? 5_000 : interval);
    }
  }

  /** The whole contract list due a verification pass, the one waiting longest. */
  async function dueForVerification(): Promise<string | null> {
    const time = now();
    // A history read whole for the first time starts its clock: it was just read.
    await pool.query(
      `UPDATE log_lists SET verified_at = $1 WHERE verified_at IS NULL AND complete
         AND NOT stable AND fault IS NULL`,
      [time],
    );
    const { rows } = await pool.query<{ path: string }>(
      `SELECT path FROM log_lists WHERE complete AND NOT stable AND fault IS NULL
         AND (verify_run IS NOT NULL OR verified_at <= $1)
       ORDER BY verify_run IS NULL, verified_at LIMIT 1`,
      [time - verifyEveryMs],
    );
    return rows[0]?.path ?? null;
  }

  /** Verification: one whole history at a time, at its own small share of the rate. */
  async function verification() {
    const interval = 1000 / options.verifyRate!;
    while (!stopped) {
      await waitForQuota();
      const path = await dueForVerification().catch(() => null);
      if (!path) {
        await sleep(60_000);
        continue;
      }
      const spec: ListSpec = { path, order: 'newest-first', identity: 'event' };
      let failures = 0;
      while (!stopped) {
        await waitForQuota();
        const step = await reader.verify(spec, VERIFY_CLIENT).catch((error: unknown) => ({
          kind: 'failed' as const,
          error,
          reads: 0,
        }));
        await sleep(interval * Math.max(1, step.reads));
        if (step.kind === 'failed') {
          // Left where it is: the pass resumes from its cursor after a longer pause.
          if (++failures >= RETRY_MS.length) break;
          await sleep(RETRY_MS[failures - 1]!);
          continue;
        }
        failures = 0;
        if (step.done) {
          const found = {
            pages: step.state.verifyPages,
            added: step.state.verifyAdded,
            changed: step.state.verifyChanged,
            removed: step.removed ?? 0,
          };
          options.verified?.(path, found);
          options.log?.(
            `Verified ${path}: ${found.pages} pages read again; ${found.added} records added, ` +
              `${found.changed} changed, ${found.removed} no longer listed by the service.`,
          );
          break;
        }
      }
    }
  }

  let backgroundDone: Promise<unknown> | undefined;

  return {
    whole,
    head,
    token,
    listed,
    listingOf,
    storedListing,
    /** One upstream page deeper into a contract's history (newest-first browsing). */
    deeper: (contract: string) => reader.deeper(contractSpec(contract), INDEXER_CLIENT),
    progress: (contract: string): WalkProgress | undefined => walks.get(contract)?.progress,
    /** Starts the background work and the verification pass, when they have a share. */
    start() {
      if (backgroundDone) return;
      const tasks: Promise<void>[] = [];
      if (options.backgroundRate > 0) tasks.push(background());
      if ((options.verifyRate ?? 0) > 0) tasks.push(verification());
      backgroundDone = Promise.all(
        tasks.map((task) =>
          task.catch((error) =>
            options.log?.(`indexer: background work stopped: ${String(error)}`),
          ),
        ),
      );
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
