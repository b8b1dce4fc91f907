import type pg from 'pg';

/**
 * The planner's statistics of the index's tables, kept up with ingest. On a table never
 * analysed, or grown far past what its statistics say, ingest's look-ups are planned to
 * read a contract's every sale for each token: a new database's first large contract,
 * read faster than autovacuum first looks at it, had one page's token upsert run past
 * the query timeout. So the statistics are taken again whenever the records ingested
 * since they were last taken reach the number of changes they then counted (5,000 at
 * least): a handful of times as the tables grow, each after a page's commit.
 */
export function createStatistics(pool: pg.Pool, floor = 5_000) {
  let since = 0;
  let counted = 0;
  let taking: Promise<void> | null = null;
  const take = async () => {
    since = 0;
    await pool.query('ANALYZE idx_changes, idx_tokens, idx_owners');
    const { rows } = await pool.query<{ rows: number }>(
      `SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE relname = 'idx_changes'`,
    );
    counted = rows[0]?.rows ?? 0;
  };
  return {
    /** `records` were ingested: the work to run after the commit, when statistics are due. */
    ingested(records: number): (() => Promise<void>) | undefined {
      since += records;
      if (taking || since < Math.max(floor, counted)) return undefined;
      // A failure (the database gone) leaves them to the next time: the page is stored.
      return () =>
        (taking ??= take()
          .catch(() => {})
          .finally(() => {
            taking = null;
          }));
    },
  };
}
