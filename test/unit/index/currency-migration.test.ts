import fc from 'fast-check';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../src/server/database/migrations';
import { hourlyRows } from '../../../src/server/index/hourly';
import { emptyIndex, useIndexDatabase } from './index-harness';
import { indexSnapshot } from './index-snapshot';
import { deliver, delivery, history, recordsOf } from './history';

/**
 * A data folder indexed before the one currency rule: its sales naming no currency have
 * the empty currency and hours of their own. The migration that brings in the rule turns
 * that index into the very index ingest makes now, table by table.
 */
const db = useIndexDatabase();

/** The index as the version before the rule kept it, made from the index of now. */
async function asBeforeTheRule(pool: pg.Pool) {
  await pool.query(`
    UPDATE idx_changes SET currency = '\\x'::bytea WHERE currency_assumed;
    DROP INDEX idx_changes_assumed;
    ALTER TABLE idx_changes DROP COLUMN currency_assumed;
    DELETE FROM idx_hourly;
    ${hourlyRows('idx_changes c', 'true')};
  `);
}

const unnamedHours = async (pool: pg.Pool) =>
  Number(
    (
      await pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM idx_hourly WHERE kind = 2 AND currency = '\\x'::bytea`,
      )
    ).rows[0]!.n,
  );

describe('the migration to one currency rule', () => {
  it('makes an index of before the rule what ingest makes now', async () => {
    const { pool } = db;
    const step = migrations.find((migration) => migration.version === 8)!;
    const samples = fc.sample(
      history
        .filter((changes) => changes.some((c) => c.kind === 'sale' && c.currency === undefined))
        .chain((changes) => fc.tuple(fc.constant(changes), delivery(recordsOf(changes).length))),
      { numRuns: 8, seed: 7 },
    );
    for (const [changes, delivered] of samples) {
      await emptyIndex(pool);
      await deliver(pool, recordsOf(changes), delivered);
      const now = await indexSnapshot(pool);
      await asBeforeTheRule(pool);
      expect(await unnamedHours(pool)).toBeGreaterThan(0);
      await pool.query(step.sql);
      expect(await unnamedHours(pool)).toBe(0);
      expect(await indexSnapshot(pool)).toEqual(now);
    }
  }, 60_000);
});
