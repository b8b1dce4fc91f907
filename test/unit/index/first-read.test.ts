import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { coverageOf } from '../../../src/server/api/coverage';
import { migrate } from '../../../src/server/database/migrations';
import { openIndexedLog } from '../../../src/server/index/open-index';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { CONTRACT, hex64, ingestPages, WALLETS, ZERO } from './history';
import { emptyIndex } from './index-harness';
import { indexSnapshot } from './index-snapshot';

/**
 * A first read stored in the log alone, stopped between the log and the build: coverage
 * says the index is catching up (what was read, what is indexed) and never that the
 * history is whole; the next start builds it, and it answers as ingest page by page does.
 */
const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function indexDatabase() {
  const database = await databases.database();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  cleanups.push(database.drop, () => pool.end());
  await migrate(pool);
  return { url: database.url, pool };
}

/** A page of `count` mints of token ids from `first` on, newest first. */
const mints = (first: number, count: number) =>
  Array.from({ length: count }, (_, index) => {
    const token = first + count - 1 - index;
    return {
      contract_address: CONTRACT,
      event_type: 'transfer',
      event_id: hex64(BigInt(token) * 3n),
      transaction_hash: hex64(BigInt(token)),
      token_id: String(token),
      from_address: ZERO,
      to_address: WALLETS[token % WALLETS.length]!,
      timestamp: String(1_700_000_000 + token * 60),
    };
  });

describe("a contract's first read stopped between the log and the build", () => {
  it('says it is catching up, and is built at the next start', async () => {
    const { url, pool } = await indexDatabase();
    const pages = [mints(11, 10), mints(1, 10)];

    // The answer page by page, for the same pages.
    await ingestPages(pool, [pages[0]!]);
    await ingestPages(pool, [pages[1]!], { complete: true });
    const ingested = await indexSnapshot(pool);
    await emptyIndex(pool);

    // The first page: in the log alone, its build cut off by a stop.
    await ingestPages(pool, [pages[0]!], { bulk: true, crash: true });
    let { coverage } = await coverageOf(pool, CONTRACT, undefined);
    expect(coverage).toMatchObject({ complete: false, records: 10, catchingUp: 0 });
    expect(coverage.indexedBack).toBeNull();
    expect(coverage.statement).toContain('catching up with what was read: 0 of 10 records');
    expect((await pool.query('SELECT 1 FROM idx_changes')).rowCount).toBe(0);

    // The last page: the list is whole, its build cut off too. Not whole in coverage.
    await ingestPages(pool, [pages[1]!], { bulk: true, crash: true, complete: true });
    ({ coverage } = await coverageOf(pool, CONTRACT, undefined));
    expect(coverage).toMatchObject({ complete: false, records: 20, catchingUp: 0 });

    // A start finishes the build.
    const log = await openIndexedLog({ connectionString: url, bulkFirstRead: true });
    cleanups.push(() => log.close());
    const built = await log.finished;
    expect(built.map((stats) => stats.contract)).toEqual([CONTRACT]);
    ({ coverage } = await coverageOf(pool, CONTRACT, undefined));
    expect(coverage).toMatchObject({ complete: true, records: 20, catchingUp: null });
    expect(coverage.indexedBack).toBe(1_700_000_060);
    expect(await indexSnapshot(pool)).toEqual(ingested);
  });

  it('builds after the first page at once, and when what was read has doubled', async () => {
    const { pool } = await indexDatabase();
    const indexed = async () => (await coverageOf(pool, CONTRACT, undefined)).coverage;
    // Pages of 10 records, oldest last: builds at 10, 20 and 40 records read.
    const seen: (number | null)[] = [];
    for (let page = 0; page < 5; page++) {
      await ingestPages(pool, [mints(100 - page * 10, 10)], { bulk: true });
      seen.push((await indexed()).catchingUp);
    }
    expect(seen).toEqual([10, 20, 20, 40, 40]);
    // Its end: built whole; the pages after it are ingested as they come.
    await ingestPages(pool, [mints(40, 10)], { bulk: true, complete: true });
    expect(await indexed()).toMatchObject({ complete: true, records: 60, catchingUp: null });
    await ingestPages(pool, [mints(200, 5)], { bulk: true });
    expect(await indexed()).toMatchObject({ complete: true, records: 65, catchingUp: null });
    expect((await pool.query('SELECT 1 FROM idx_changes')).rowCount).toBe(65);
  });
});
