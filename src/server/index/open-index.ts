import pg from 'pg';
import { openRecordLog, type RecordLogOptions } from '../log/record-log';
import { noticeChanges } from './change-notice';
import { createFirstRead } from './first-read';
import { createStatistics } from './statistics';
import { createIngest } from './ingest';
import { parseListPath } from './list-path';
import { rebuildContract } from './rebuild';

export interface IndexedLogOptions extends Omit<RecordLogOptions, 'onCommit'> {
  /**
   * A contract's first read stored in the log alone and its index built from it
   * (first-read.ts); false (the default): every page ingested as it commits, which bench
   * `ingest` measured faster end to end (test/bench/README.md).
   */
  bulkFirstRead?: boolean;
}

/**
 * What the record log runs in each commit's transaction: the page's records made index
 * rows (ingest.ts), or kept in the log alone for a build (first-read.ts) that the commit's
 * caller runs once the page has committed. `builds` is the pool builds take their
 * connection from.
 */
export function indexCommitHook(
  pool: pg.Pool,
  builds: pg.Pool,
  { bulkFirstRead = false }: { bulkFirstRead?: boolean } = {},
) {
  const ingest = createIngest(pool);
  const statistics = createStatistics(pool);
  const firstRead = bulkFirstRead ? createFirstRead(pool, builds) : undefined;
  const onCommit = async (
    client: pg.PoolClient,
    path: string,
    texts: readonly string[],
    state: { complete: boolean; records: number },
    changed: boolean,
  ): Promise<void | (() => Promise<unknown>)> => {
    const target = parseListPath(path);
    const events = target && target.kind !== 'contracts' ? target : undefined;
    const alone =
      events &&
      (await firstRead?.storesAlone(
        client,
        events.contract,
        events.kind === 'contract-events',
        texts.length,
      ));
    // In the log alone: its build reads the records changed too.
    if (alone) return alone.due ? () => firstRead!.build(events.contract) : undefined;
    await ingest.onCommit(client, path, texts, state);
    // Live pages hear of the new rows once they are committed (change-notice.ts).
    if (events && texts.length > 0) await noticeChanges(client, events.contract);
    // Records the service sent changed, or no longer lists: the contract's index is made
    // again from the log, in the same transaction (ingest only ever adds).
    if (changed && events) await rebuildContract(client, events.contract);
    // The contracts list is no change of hands: only event lists grow the index's tables.
    return events ? statistics.ingested(texts.length) : undefined;
  };
  return { onCommit, firstRead };
}

/**
 * The record log with the index fed by its commits (`indexCommitHook`). `finished`
 * settles once the builds a crash left undone are made (a start makes them, in the
 * background).
 */
export async function openIndexedLog({ bulkFirstRead = false, ...options }: IndexedLogOptions) {
  // The hook needs the log's pool, which exists once the log does; nothing commits before.
  const fed: { hook?: ReturnType<typeof indexCommitHook> } = {};
  // Builds run one at a time, without the log's query timeout: a statement of a build
  // covers the whole contract.
  const builds = new pg.Pool({
    connectionString: options.connectionString,
    max: 1,
    connectionTimeoutMillis: options.queryTimeoutMs ?? 20_000,
  });
  builds.on('error', () => {});
  let log: Awaited<ReturnType<typeof openRecordLog>>;
  try {
    log = await openRecordLog({
      ...options,
      onCommit: (...args) => fed.hook!.onCommit(...args),
    });
  } catch (error) {
    await builds.end();
    throw error;
  }
  fed.hook = indexCommitHook(log.pool, builds, { bulkFirstRead });
  // A build left undone is made again by the contract's next page too: a failure here
  // (the database gone) leaves it to that.
  const finished = (fed.hook.firstRead?.finish() ?? Promise.resolve([])).catch(() => []);
  return {
    ...log,
    finished,
    async close() {
      await finished;
      await log.close();
      await builds.end();
    },
  };
}
