import { describe, expect, it } from 'vitest';
import { RESET_WASH, UPSERT_TOKENS } from '../../../src/server/index/ingest';
import { useIndexDatabase } from './index-harness';

/**
 * Ingest's look-ups are planned as one probe of a token's own index per token, even for a
 * contract the statistics have not met (one being read for the first time, estimated to
 * hold one row): planned from that estimate, the stored tokens were hashed whole for each
 * page, and each token's mint facts read the contract's every change.
 */
const db = useIndexDatabase();

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads a table. */
function scans(node: PlanNode): PlanNode[] {
  const own = node['Relation Name'] && node['Node Type'] !== 'ModifyTable' ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scans)];
}

async function planOf(sql: string, values: unknown[]) {
  const { rows } = await db.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${sql}`,
    values,
  );
  return scans(rows[0]!['QUERY PLAN'][0].Plan);
}

describe("ingest's plans", () => {
  it('look each token up by its own index, whatever the statistics say of the contract', async () => {
    // Only this test takes statistics: autovacuum, analysing the tables after the second
    // contract grew, would plan with statistics that know it.
    await db.pool.query(`ALTER TABLE idx_changes SET (autovacuum_enabled = false);
      ALTER TABLE idx_tokens SET (autovacuum_enabled = false)`);
    await db.pool.query(`INSERT INTO idx_contracts (address) VALUES ('0xa'), ('0xb')`);
    // Each token of a contract minted, then moved; every third change a sale.
    const fill = async (contract: number, tokens: number) => {
      await db.pool.query(
        `INSERT INTO idx_changes (key, contract_id, tx, token_id, from_addr, to_addr, ts,
           base_kind, label, event_id, has_transfer, has_sale)
         SELECT decode(md5($1::integer || ':' || g), 'hex'), $1::integer, '\\x01', g / 2,
           '\\x00', '\\x02', g, g % 2, 'transfer', g::text, true, g % 3 = 0
         FROM generate_series(0, $2::integer * 2 + 1) g`,
        [contract, tokens],
      );
      await db.pool.query(
        `INSERT INTO idx_tokens (contract_id, token_id, owner, since, rank, last_id, first_ts,
           minted, burned, changes)
         SELECT $1::integer, g, '\\x02', 0, 1, 1, 0, true, false, 2
         FROM generate_series(0, $2::integer) g`,
        [contract, tokens],
      );
    };
    await fill(1, 100);
    // The statistics know contract 1 only; contract 2 then grows past them.
    await db.pool.query('ANALYZE');
    await fill(2, 20_000);
    const tokens = Array.from({ length: 1_000 }, (_, index) => String(index * 7));
    const tokensInput = JSON.stringify(
      tokens.map((token) => [token, '03', 5, 1, 10, 1, true, false, 1]),
    );
    const salesInput = JSON.stringify(tokens.map((token) => [token, 1, 50_000]));
    const reads = [
      ...(await planOf(UPSERT_TOKENS, [2, tokensInput])),
      ...(await planOf(RESET_WASH, [2, salesInput])),
    ];
    const stored = reads.filter((node) => /^idx_(changes|tokens)$/.test(node['Relation Name']!));
    expect(stored.length).toBeGreaterThan(0);
    for (const node of stored) {
      expect(node['Index Name'], JSON.stringify(node)).toMatch(
        /^(idx_changes_token|idx_changes_token_sales|idx_changes_pkey|idx_tokens_pkey)$/,
      );
      if (node['Index Name'] !== 'idx_changes_pkey') {
        expect(node['Index Cond'], node['Index Name']).toMatch(/token_id = /);
      }
    }
  });
});
