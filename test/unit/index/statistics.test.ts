import { describe, expect, it } from 'vitest';
import { createStatistics } from '../../../src/server/index/statistics';
import { useIndexDatabase } from './index-harness';

const db = useIndexDatabase();

const analysedAt = async () => {
  const { rows } = await db.pool.query<{ at: Date | null }>(
    `SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'idx_changes'`,
  );
  return rows[0]?.at ?? null;
};

describe('the index tables’ statistics', () => {
  it('are taken once the records ingested reach the floor, then each time the changes double', async () => {
    await db.pool.query(`INSERT INTO idx_contracts (address) VALUES ('0xa')`);
    await db.pool.query(
      `INSERT INTO idx_changes (key, contract_id, tx, token_id, from_addr, to_addr, ts,
         base_kind, label, event_id, has_transfer, has_sale)
       SELECT decode(md5(g::text), 'hex'), 1, '\\x01', g, '\\x00', '\\x02', g, 1, 'transfer',
         g::text, true, false
       FROM generate_series(1, 300) g`,
    );
    const statistics = createStatistics(db.pool, 100);
    expect(statistics.ingested(60)).toBeUndefined();
    expect(await analysedAt()).toBeNull();
    const due = statistics.ingested(60);
    expect(due).toBeTypeOf('function');
    await due!();
    const first = await analysedAt();
    expect(first).not.toBeNull();
    // They counted 300 changes: due again once 300 more records are ingested.
    expect(statistics.ingested(200)).toBeUndefined();
    const again = statistics.ingested(100);
    expect(again).toBeTypeOf('function');
    await again!();
    expect((await analysedAt())!.getTime()).toBeGreaterThanOrEqual(first!.getTime());
    expect(statistics.ingested(1)).toBeUndefined();
  });
});
