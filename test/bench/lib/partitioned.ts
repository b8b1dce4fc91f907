import type pg from 'pg';

/**
 * The index's four big tables again, partitioned by hash of `contract_id`, in a schema of
 * their own, for bench `scale` to time the same queries on both layouts. A pool whose
 * connections set `PARTITIONED_PATH` reads them; `idx_contracts` and the rest come from
 * `public`. Read only: nothing writes to the copy.
 */
export const PARTITIONED_SCHEMA = 'bench_partitioned';
export const PARTITIONED_PATH = `-c search_path=${PARTITIONED_SCHEMA},public`;

const TABLES = ['idx_changes', 'idx_tokens', 'idx_owners', 'idx_hourly'] as const;

export async function partitionedCopy(
  db: pg.Pool,
  partitions: number,
): Promise<{ ms: number; plainMb: number; partitionedMb: number }> {
  const started = performance.now();
  const schema = PARTITIONED_SCHEMA;
  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
  for (const table of TABLES) {
    await db.query(
      `CREATE TABLE ${schema}.${table} (LIKE public.${table} INCLUDING DEFAULTS INCLUDING GENERATED)
       PARTITION BY HASH (contract_id)`,
    );
    for (let part = 0; part < partitions; part += 1) {
      await db.query(
        `CREATE TABLE ${schema}.${table}_${part} PARTITION OF ${schema}.${table}
         FOR VALUES WITH (MODULUS ${partitions}, REMAINDER ${part})`,
      );
    }
    const columns = (
      await db.query<{ name: string }>(
        `SELECT attname AS name FROM pg_attribute
         WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
         ORDER BY attnum`,
        [`public.${table}`],
      )
    ).rows.map((row) => row.name);
    const list = columns.join(', ');
    await db.query(`INSERT INTO ${schema}.${table} (${list}) SELECT ${list} FROM public.${table}`);
    // A partitioned table's unique index must hold the partition key: the primary key of
    // `idx_changes` (id) and its twin key become (contract_id, …).
    const indexes = (
      await db.query<{ def: string }>(
        `SELECT indexdef AS def FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1`,
        [table],
      )
    ).rows.map((row) => row.def);
    for (const def of indexes) {
      let made = def.replace(` ON public.${table} `, ` ON ${schema}.${table} `);
      if (/^CREATE UNIQUE/.test(made) && !/\(([^)]*\b)?contract_id\b/.test(made)) {
        made = made.replace(/USING btree \(/, 'USING btree (contract_id, ');
      }
      await db.query(made);
    }
  }
  await db.query(`ANALYZE ${TABLES.map((table) => `${schema}.${table}`).join(', ')}`);
  const size = async (namespace: string) =>
    Number(
      (
        await db.query<{ bytes: string }>(
          `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = $1 AND c.relkind = 'r'
             AND (c.relname = ANY($2) OR c.relname ~ ('^(' || array_to_string($2, '|') || ')_[0-9]+$'))`,
          [namespace, TABLES],
        )
      ).rows[0]!.bytes,
    ) /
    2 ** 20;
  return {
    ms: performance.now() - started,
    plainMb: await size('public'),
    partitionedMb: await size(schema),
  };
}
