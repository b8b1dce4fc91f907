import type pg from 'pg';
import { withClient } from '../database/held-client';
import { contractIdOn } from './contract-ids';
import { createIngest, lockContract } from './ingest';
import { contractEventsPath, parseListPath } from './list-path';
import { rebuildChanges, type ListRow } from './rebuild-changes';
import { SET_HOURS, SET_OWNERS, SET_WASH, SYNC_TOKENS } from './rebuild-tables';

/**
 * The index made again from the record log alone, without asking the service: a
 * contract's change rows from its lists' records (rebuild-changes.ts), then every other
 * table from those rows, one statement each over the whole contract (rebuild-tables.ts):
 * what ingest gives for the same records, whatever order their pages came in. What the
 * service no longer lists (`removed_at`) is left out. A verification pass that finds
 * records removed or changed calls `rebuildContract` in its own transaction.
 */

export interface RebuildStats {
  contract: string;
  /** Records read; of them, refused by the normaliser, and naming another contract. */
  records: number;
  skipped: number;
  foreign: number;
  /** Change rows the contract has now. */
  changes: number;
  /**
   * Milliseconds: reading and parsing the records (`read`, PostgreSQL and Node
   * overlapping), Node's part of it (`parse`), storing their rows, then each table made
   * from the rows.
   */
  ms: {
    read: number;
    parse: number;
    store: number;
    flags: number;
    tokens: number;
    owners: number;
    hours: number;
  };
}

export interface RebuildProgress {
  /** Contracts rebuilt so far, of `contractsTotal`. */
  contracts: number;
  contractsTotal: number;
  /** Records read so far, of about `recordsTotal` (the lists' counts). */
  records: number;
  recordsTotal: number;
}

export interface RebuildOptions {
  /** Records read at a time (tests make it small, so twins fall in two batches). */
  batch?: number;
  /**
   * Statistics of `idx_changes` taken again once the rows are stored, before the tables
   * made from them: for a contract the statistics have not met (a first read's build), the
   * planner otherwise took the contract for a few rows and looked each token's mint facts
   * up by scanning the contract's mints, minutes for 6,000 records. It holds ANALYZE's
   * lock on the table until the transaction ends (builds of other contracts wait).
   */
  analyze?: boolean;
}

const REBUILD_WORK_MEM = '64MB';

// The contract's lists: its events and its tokens' (`/v1/events/0x…/<id>`).
const LISTS_OF = `SELECT id, path, complete FROM log_lists WHERE path = $1 OR path LIKE $1 || '/%'`;

/**
 * Rebuilds one contract's index rows from the log in the caller's transaction, holding
 * the contract's ingest lock until it ends. In READ COMMITTED (the default): each
 * statement then sees every page committed before the lock was granted. `onRecords` is
 * told each batch's count of records.
 */
export async function rebuildContract(
  client: pg.ClientBase,
  contract: string,
  options: RebuildOptions & { onRecords?: (records: number) => void } = {},
): Promise<RebuildStats> {
  let started = performance.now();
  const lap = () => {
    const ms = performance.now() - started;
    started += ms;
    return ms;
  };
  const id = await contractIdOn(client, contract);
  await lockContract(client, id);
  // Whole-contract sorts and joins in memory rather than in files, for this work only.
  const { rows: memory } = await client.query<{ work_mem: string }>('SHOW work_mem');
  await client.query(`SET LOCAL work_mem = '${REBUILD_WORK_MEM}'`);
  const { rows: lists } = await client.query<ListRow>(LISTS_OF, [contractEventsPath(contract)]);
  const ownList = lists.find((list) => parseListPath(list.path)?.kind === 'contract-events');
  const own = new Set(ownList ? [ownList.id] : []);
  const read = await rebuildChanges(client, id, contract, lists, own, options);
  if (options.analyze) await client.query('ANALYZE idx_changes');
  const readMs = lap();
  for (const statement of SET_WASH) await client.query(statement, [id]);
  const flags = lap();
  const { rows } = await client.query<{ changes: number }>(SYNC_TOKENS, [id]);
  const tokens = lap();
  for (const statement of SET_OWNERS) await client.query(statement, [id]);
  const owners = lap();
  for (const statement of SET_HOURS) await client.query(statement, [id]);
  const hours = lap();
  await client.query(`SELECT set_config('work_mem', $1, true)`, [memory[0]!.work_mem]);
  // Coverage as ingest keeps it: the contract's own list says how deep and how complete;
  // a token's list moves the newest time, never the oldest. A first read stored in the log
  // alone has caught up once its list was read to the end (first-read.ts).
  await client.query(
    `UPDATE idx_contracts SET oldest_ts = $2, newest_ts = $3, records = $4, complete = $5,
       catching_up = catching_up AND NOT $5
     WHERE id = $1`,
    [id, read.oldest, read.newest, read.ownRecords, ownList?.complete ?? false],
  );
  return {
    contract,
    records: read.records,
    skipped: read.skipped,
    foreign: read.foreign,
    changes: rows[0]!.changes,
    ms: {
      read: readMs - read.storeMs,
      parse: read.parseMs,
      store: read.storeMs,
      flags,
      tokens,
      owners,
      hours,
    },
  };
}

/**
 * Rebuilds the index from the log: one contract, or everything (the contracts list, then
 * every contract the index or the log knows, each in a transaction of its own, so the
 * others stay readable and ingest waits for one contract at a time).
 */
export async function rebuildIndex(
  pool: pg.Pool,
  options: RebuildOptions & {
    contract?: string;
    onProgress?: (progress: RebuildProgress) => void;
  } = {},
): Promise<RebuildStats[]> {
  const { contract, onProgress, ...rest } = options;
  const { rows: lists } = await pool.query<{ path: string; records: string }>(
    'SELECT path, records FROM log_lists',
  );
  const eventLists = lists.flatMap(({ path, records }) => {
    const target = parseListPath(path);
    return target && target.kind !== 'contracts' ? [{ contract: target.contract, records }] : [];
  });
  const { rows: indexed } = await pool.query<{ address: string }>(
    'SELECT address FROM idx_contracts',
  );
  const contracts = contract
    ? [contract]
    : [...new Set([...indexed.map((row) => row.address), ...eventLists.map((l) => l.contract)])];
  const chosen = new Set(contracts);
  const progress: RebuildProgress = {
    contracts: 0,
    contractsTotal: contracts.length,
    records: 0,
    recordsTotal: eventLists
      .filter((list) => chosen.has(list.contract))
      .reduce((sum, list) => sum + Number(list.records), 0),
  };
  if (!contract) await inTransaction(pool, (client) => rebuildContractsList(pool, client));
  const done: RebuildStats[] = [];
  for (const address of contracts.sort()) {
    const onRecords = (records: number) => {
      progress.records += records;
      onProgress?.(progress);
    };
    done.push(
      await inTransaction(pool, (client) =>
        rebuildContract(client, address, { ...rest, onRecords }),
      ),
    );
    progress.contracts += 1;
    onProgress?.(progress);
  }
  return done;
}

/**
 * What the contracts list says of each contract, made again from its records by ingest
 * (the list's records in one call, in arrival order): nothing for a contract no record
 * names any more.
 */
async function rebuildContractsList(pool: pg.Pool, client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ body: Buffer }>(
    `SELECT r.body FROM log_records r JOIN log_lists l ON l.id = r.list_id
     WHERE l.path = '/v1/contracts' AND r.removed_at IS NULL ORDER BY r.seq`,
  );
  await client.query(
    `UPDATE idx_contracts SET name = NULL, symbol = NULL, image = NULL, contract_type = NULL,
       listed = false WHERE listed`,
  );
  const texts = rows.map((row) => row.body.toString());
  await createIngest(pool).onCommit(client, '/v1/contracts', texts, {
    complete: false,
    records: texts.length,
  });
}

async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
