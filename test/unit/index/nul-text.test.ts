import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../src/server/database/migrations';
import { createIngest } from '../../../src/server/index/ingest';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * A NUL (`\u0000`) in the service's text reaches the index as text without it: PostgreSQL's
 * text columns refuse the character, and a NUL let through failed the page's whole
 * transaction (the contracts list was never stored, background indexing stopped).
 */
const databases = usePostgresDatabases();
const NUL = '\u0000';
const A = (digits: string) => `0x${digits.padStart(64, '0')}`;
const CONTRACT = A('c0ffee');

let pool: pg.Pool | undefined;
let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await pool?.end();
  await drop?.();
  pool = drop = undefined;
});

async function migrated() {
  const database = await databases.database();
  drop = database.drop;
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  await migrate(pool);
  return pool;
}

/** The records committed to the list at `path` in one transaction, as the log does. */
async function commit(db: pg.Pool, path: string, records: object[]) {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const stats = await createIngest(db).onCommit(
      client,
      path,
      records.map((record) => JSON.stringify(record)),
      { complete: true, records: records.length },
    );
    await client.query('COMMIT');
    return stats;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

describe('NUL in the service’s text, ingested', () => {
  it('stores a contracts list whose names, symbols, images and types hold NUL', async () => {
    const db = await migrated();
    const stats = await commit(db, '/v1/contracts', [
      {
        contract_address: CONTRACT,
        contract_type: `ERC721${NUL}`,
        name: `${NUL}Realms${NUL}${NUL}`,
        symbol: `LO${NUL}RDS`,
        image: `https://example.com/${NUL}realms.png`,
      },
      { contract_address: A('2'), name: 'Plain' },
    ]);
    expect(stats).toEqual({ records: 2, skipped: 0, changes: 0 });
    const { rows } = await db.query(
      'SELECT address, name, symbol, image, contract_type FROM idx_contracts ORDER BY address',
    );
    expect(rows).toEqual([
      { address: A('2'), name: 'Plain', symbol: null, image: null, contract_type: null },
      {
        address: CONTRACT,
        name: 'Realms',
        symbol: 'LORDS',
        image: 'https://example.com/realms.png',
        contract_type: 'ERC721',
      },
    ]);
  });

  it('stores a contract’s sales whose marketplace, event id and unread price hold NUL', async () => {
    const db = await migrated();
    const sale = {
      nft_contract_address: CONTRACT,
      event_type: 'sale',
      from_address: A('5e11e7'),
      to_address: A('b0b'),
      timestamp: 1_750_000_000,
      quantity: '1',
      price: '1000',
      marketplace_contract_address: A('dd'),
    };
    const stats = await commit(db, `/v1/events/${CONTRACT}`, [
      {
        ...sale,
        event_id: `${A('e1')}${NUL}`,
        token_id: '1',
        transaction_hash: A('71'),
        marketplace_name: `Element${NUL}`,
      },
      {
        ...sale,
        event_id: A('e2'),
        token_id: '2',
        transaction_hash: A('72'),
        price: `about${NUL} 1 ETH`,
        marketplace_name: `${NUL}Pyramid`,
      },
    ]);
    expect(stats).toEqual({ records: 2, skipped: 0, changes: 2 });
    const { rows } = await db.query(
      `SELECT token_id::text, event_id, label, price::text, price_text, marketplace
       FROM idx_changes ORDER BY token_id`,
    );
    expect(rows).toEqual([
      {
        token_id: '1',
        event_id: A('e1'),
        label: 'sale',
        price: '1000',
        price_text: null,
        marketplace: 'Element',
      },
      {
        token_id: '2',
        event_id: A('e2'),
        label: 'sale',
        price: null,
        price_text: 'about 1 ETH',
        marketplace: 'Pyramid',
      },
    ]);
    const hourly = await db.query('SELECT marketplace FROM idx_hourly ORDER BY marketplace');
    expect(hourly.rows).toEqual([{ marketplace: 'Element' }, { marketplace: 'Pyramid' }]);
  });
});
