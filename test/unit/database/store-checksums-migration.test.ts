import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, migrations } from '../../../src/server/database/migrations';
import { encodeChunk } from '../../../src/server/store/chunk-codec';
import { chunksOf } from '../../../src/server/store/engine';
import { openPostgresEngine } from '../../../src/server/store/postgres-engine';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * Schema 3 on a database made before it: chunks written without a checksum are still
 * served, and stable lists (stored without an index of their identities) are due to be
 * read again, so none is told new from stored by an index that lacks its records.
 */
const databases = usePostgresDatabases();
const cleanUp: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanUp.splice(0).reverse()) await step();
});

describe('schema 3 on a database of schema 2', () => {
  it('keeps old chunks readable and makes stable lists due', async () => {
    const { url, drop } = await databases.database();
    const pool = new pg.Pool({ connectionString: url });
    cleanUp.push(drop, () => pool.end());
    await migrate(pool, migrations.slice(0, 2));
    const lists = ['/v1/contracts', '/v1/events/0xabc/7', '/v1/events/0xabc'];
    const [chunk] = chunksOf(0, [{ json: Buffer.from('{"a":1}'), ts: 5 }]);
    for (const list of lists) {
      await pool.query(
        `INSERT INTO store_lists VALUES ($1, 1, 0, 1, true, NULL, 1000, 1000, 7, 1000)`,
        [list],
      );
      await pool.query(`INSERT INTO store_chunks VALUES ($1, 1, 0, $2, 1, 7)`, [
        list,
        encodeChunk(chunk!),
      ]);
    }
    const engine = await openPostgresEngine({ connectionString: url });
    cleanUp.push(() => engine.close());
    const fetched = Object.fromEntries(
      await Promise.all(lists.map(async (list) => [list, (await engine.read(list))!.fetchedAt])),
    );
    expect(fetched).toEqual({
      '/v1/contracts': 0,
      '/v1/events/0xabc/7': 0,
      '/v1/events/0xabc': 1000,
    });
    const [read] = await engine.chunksFrom('/v1/events/0xabc', 1, 0, 1);
    expect(Buffer.from(read!.body).toString()).toBe('{"a":1}');
  });
});
