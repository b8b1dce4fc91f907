import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/database/migrations';
import { createIngest, lockContract } from '../../../src/server/index/ingest';
import { contractEventsPath } from '../../../src/server/index/list-path';
import { rebuildContract, rebuildIndex } from '../../../src/server/index/rebuild';
import { appendToLog } from '../../support/log-records';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { CONTRACT, hex64, ingestPages, WALLETS, ZERO } from './history';
import { indexSnapshot } from './index-snapshot';

/**
 * The rebuild's cases the property does not reach: two changes of one token at one time,
 * a record that is not UTF-8, a record naming another contract, and the ingest lock held.
 */

const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function indexDatabase(): Promise<pg.Pool> {
  const database = await databases.database();
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  cleanups.push(database.drop, () => pool.end());
  await migrate(pool);
  return pool;
}

const PATH = contractEventsPath(CONTRACT);

/** A transfer record of token 1 of the history's contract. */
const transfer = (tx: number, from: string, to: string, ts: number) => ({
  contract_address: CONTRACT,
  event_type: 'transfer',
  event_id: hex64(BigInt(tx) * 7n),
  transaction_hash: hex64(BigInt(tx)),
  token_id: '1',
  from_address: from,
  to_address: to,
  timestamp: String(ts),
});

/** The index emptied of everything made from the records, then rebuilt. */
async function rebuiltFromNothing(pool: pg.Pool) {
  await pool.query(`TRUNCATE idx_changes, idx_tokens, idx_owners, idx_hourly;
    UPDATE idx_contracts SET oldest_ts = NULL, newest_ts = NULL, records = 0, complete = false`);
  return rebuildIndex(pool);
}

describe('the index rebuilt from the record log', () => {
  it('numbers changes in the order their records arrived: two at one time keep their holder', async () => {
    const pool = await indexDatabase();
    const [a, b, c] = WALLETS;
    // Newest first, as the service lists them: ingest numbers B → C before A → B, and the
    // holder rule, at one time, takes the change numbered last.
    await ingestPages(pool, [[transfer(3, b!, c!, 100), transfer(2, a!, b!, 100)]]);
    await ingestPages(pool, [[transfer(1, ZERO, a!, 50)]]);
    const ingested = await indexSnapshot(pool);
    const { rows } = await pool.query<{ owner: Buffer }>('SELECT owner FROM idx_tokens');
    expect(`0x${rows[0]!.owner.toString('hex')}`).toBe(b);
    await rebuiltFromNothing(pool);
    expect(await indexSnapshot(pool)).toEqual(ingested);
    // The two added again beside a row stored: put aside, then added in arrival order.
    await pool.query('DELETE FROM idx_changes WHERE ts = 100');
    await rebuildIndex(pool);
    expect(await indexSnapshot(pool)).toEqual(ingested);
  });

  it('reads a record that is not UTF-8 as ingest was given it', async () => {
    const pool = await indexDatabase();
    const text = JSON.stringify({
      ...transfer(1, WALLETS[1]!, WALLETS[0]!, 50),
      event_type: 'sale',
      price: '5',
      marketplace_name: 'BAD',
    });
    const bytes = Buffer.from(text.replace('BAD', 'B\u0000D'));
    bytes[bytes.indexOf(0)] = 0xff;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const state = await appendToLog(client, PATH, [{ json: bytes, ts: 50, key: 'bad' }], true);
      await createIngest(pool).onCommit(client, PATH, [bytes.toString()], state);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const ingested = await indexSnapshot(pool);
    expect(ingested.changes).toEqual([expect.stringContaining('B\uFFFDD')]);
    await rebuiltFromNothing(pool);
    expect(await indexSnapshot(pool)).toEqual(ingested);
  });

  it('leaves out, and counts, a record of the contract’s list that names another contract', async () => {
    const pool = await indexDatabase();
    const other = `0x${'a'.repeat(64)}`;
    await ingestPages(pool, [
      [
        transfer(1, ZERO, WALLETS[0]!, 50),
        { ...transfer(2, ZERO, WALLETS[1]!, 60), contract_address: other },
      ],
    ]);
    const [stats] = await rebuildIndex(pool, { contract: CONTRACT });
    expect(stats).toMatchObject({ records: 2, foreign: 1, skipped: 0, changes: 1 });
  });

  it('holds the contract’s ingest lock until its transaction ends', async () => {
    const pool = await indexDatabase();
    await ingestPages(pool, [[transfer(1, ZERO, WALLETS[0]!, 50)]]);
    const { rows } = await pool.query<{ id: number }>(
      'SELECT id FROM idx_contracts WHERE address = $1',
      [CONTRACT],
    );
    const rebuilding = await pool.connect();
    const ingesting = await pool.connect();
    try {
      await rebuilding.query('BEGIN');
      await rebuildContract(rebuilding, CONTRACT);
      await ingesting.query(`BEGIN; SET LOCAL lock_timeout = '100ms'`);
      await expect(lockContract(ingesting, rows[0]!.id)).rejects.toMatchObject({ code: '55P03' });
      await ingesting.query('ROLLBACK');
      await rebuilding.query('COMMIT');
      await ingesting.query('BEGIN');
      await lockContract(ingesting, rows[0]!.id);
      await ingesting.query('COMMIT');
    } finally {
      rebuilding.release();
      ingesting.release();
    }
  });
});
