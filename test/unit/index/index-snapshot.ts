import type pg from 'pg';

/**
 * Every table of the index as content, to compare two builds of it: each row as JSON text
 * without its serial number, a contract named by its address, and a token's latest change
 * (`last_id`) by that change's key (what the holder rule chose, whatever it was numbered).
 * A contract's row that holds nothing is left out: the index never deletes one.
 */
export async function indexSnapshot(pool: pg.Pool): Promise<Record<string, string[]>> {
  const rows = async (sql: string) =>
    (await pool.query<{ row: string }>(`SELECT row FROM (${sql}) r ORDER BY row`)).rows.map(
      (r) => r.row,
    );
  const withContract = (table: string, drop: string) => `
    SELECT ((to_jsonb(t) - 'contract_id' ${drop})
      || jsonb_build_object('contract', a.address))::text AS row
    FROM ${table} t JOIN idx_contracts a ON a.id = t.contract_id`;
  return {
    contracts: await rows(`SELECT (to_jsonb(a) - 'id' - 'upstream_failure' - 'upstream_failure_at'
      - 'walk_fault')::text AS row FROM idx_contracts a
      WHERE a.listed OR a.complete OR a.records > 0 OR a.newest_ts IS NOT NULL`),
    changes: await rows(withContract('idx_changes', `- 'id'`)),
    tokens: await rows(`
      SELECT ((to_jsonb(t) - 'contract_id' - 'last_id')
        || jsonb_build_object('contract', a.address, 'latest', encode(c.key, 'hex')))::text AS row
      FROM idx_tokens t JOIN idx_contracts a ON a.id = t.contract_id
      LEFT JOIN idx_changes c ON c.id = t.last_id`),
    owners: await rows(withContract('idx_owners', '')),
    hours: await rows(withContract('idx_hourly', '')),
  };
}
