import type pg from 'pg';

/**
 * The channel PostgreSQL tells of a contract's new index rows on (`NOTIFY`, payload the
 * contract's address). Sent inside the transaction that wrote them, so it reaches every
 * listening session, on every server sharing the database, once they are committed and
 * readable: live pages (src/server/live) read them at once rather than on their next tick.
 */
export const CHANGES_CHANNEL = 'idx_changes_added';

/** Tells listeners, once the caller's transaction commits, that `contract` has new rows. */
export async function noticeChanges(client: pg.ClientBase, contract: string): Promise<void> {
  // PostgreSQL sends one notice per payload per transaction, however often it is asked.
  await client.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, contract]);
}
