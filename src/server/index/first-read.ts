import type pg from 'pg';
import { withClient } from '../database/held-client';
import { enqueueDeliveries, holdersNow, watchersOf } from '../webhooks/outbox';
import { noticeChanges } from './change-notice';
import { contractIds } from './contract-ids';
import { lockContract } from './ingest';
import { contractEventsPath } from './list-path';
import { rebuildContract, type RebuildStats } from './rebuild';

/**
 * A contract's first read, stored in the record log alone, its index built from the log
 * by the rebuild's whole-contract statements (rebuild.ts) instead of page by page
 * (ingest.ts): ingest's cost is per row, at random places of indexes, where a build
 * writes the contract's rows as sets. Only when asked (`openIndexedLog`'s
 * `bulkFirstRead`, `npm run index -- --from-log`): bench `ingest` measured it slower end
 * to end than page by page at the sample's scale (test/bench/README.md).
 *
 * - A page of the contract's own list that brings records while the index holds nothing
 *   of that list (`oldest_ts` NULL) marks the contract `catching_up`; from then on every
 *   page of its lists (its own, its tokens') goes into the log alone.
 * - A build is due when the own list has been read to its end, or when what it holds has
 *   doubled since the last build (the first page builds at once): answers come while a
 *   long history is read, the index always holds at least half of what was read, and the
 *   records read again by the builds are fewer than twice the list's.
 * - A build runs after the page's commit, in a transaction of its own that holds the
 *   contract's ingest lock (pages of the contract wait for it), so readers see the index
 *   before it or after it, never half of it. The one that reads the list whole clears
 *   `catching_up` in that transaction (rebuild.ts); the contract's later pages are
 *   ingested page by page.
 * - A crash between a page and its build loses nothing: the page is in the log and the
 *   mark says the log is ahead. The next page of the contract builds when due, and a start
 *   builds every contract marked whose list is whole (`finish`).
 * - A build is history for live pages and webhooks as ingest's pages are: it tells live
 *   pages of its rows (they keep those newer than a stream's start) and gives webhooks'
 *   rules the rows it added (they keep those made after the webhook).
 */

export interface StoredAlone {
  /** The contract's index should be built from the log once the page has committed. */
  due: boolean;
}

const OWN_LIST = 'SELECT records, complete FROM log_lists WHERE path = $1';

export function createFirstRead(pool: pg.Pool, builds: pg.Pool) {
  const ids = contractIds(pool);

  /** Builds the contract's index from the log, if it is still catching up. */
  async function build(contract: string): Promise<RebuildStats | undefined> {
    return withClient(builds, async (client) => {
      await client.query('BEGIN');
      try {
        const id = await ids.idOf(contract);
        await lockContract(client, id);
        const { rows } = await client.query<{ catching_up: boolean }>(
          'SELECT catching_up FROM idx_contracts WHERE id = $1',
          [id],
        );
        // Built meanwhile (another server, a start's `finish`).
        if (!rows[0]?.catching_up) {
          await client.query('COMMIT');
          return undefined;
        }
        const watching = await watchersOf(client, contract);
        const holdersBefore = await holdersNow(client, id, watching);
        const { rows: last } = await client.query<{ id: string }>(
          'SELECT coalesce(max(id), 0) AS id FROM idx_changes WHERE contract_id = $1',
          [id],
        );
        const stats = await rebuildContract(client, contract, { analyze: true });
        if (watching.length > 0) {
          // The rows this build added, from the oldest webhook's creation on (the rules
          // keep each webhook's own): news that came while the contract caught up.
          const since = Math.min(...watching.map((each) => each.createdAt));
          const { rows: added } = await client.query<{ id: string }>(
            `SELECT id FROM idx_changes WHERE contract_id = $1 AND id > $2 AND ts >= $3
             ORDER BY id`,
            [id, last[0]!.id, since],
          );
          const rowIds = added.map((row) => row.id);
          await enqueueDeliveries(
            client,
            watching,
            {
              contract,
              contractId: id,
              added: rowIds,
              flagged: rowIds,
              ...(holdersBefore !== undefined && { holdersBefore }),
            },
            Date.now(),
          );
        }
        await noticeChanges(client, contract);
        await client.query('COMMIT');
        return stats;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  return {
    build,

    /**
     * In a page's commit of one of the contract's lists, before ingest: whether the page
     * stays in the log alone (the contract is catching up, or starts to), and if so
     * whether a build is due once it commits. Holds the contract's ingest lock.
     */
    async storesAlone(
      client: pg.ClientBase,
      contract: string,
      ofContract: boolean,
      added: number,
    ): Promise<StoredAlone | undefined> {
      const id = await ids.idOf(contract);
      await lockContract(client, id);
      const { rows } = await client.query<{ records: string }>(
        `UPDATE idx_contracts SET catching_up = true
         WHERE id = $1 AND (catching_up OR ($2 AND oldest_ts IS NULL))
         RETURNING records`,
        [id, ofContract && added > 0],
      );
      if (!rows[0]) return undefined;
      const indexed = Number(rows[0].records);
      const { rows: own } = await client.query<{ records: string; complete: boolean }>(OWN_LIST, [
        contractEventsPath(contract),
      ]);
      const read = Number(own[0]?.records ?? 0);
      return { due: own[0]?.complete === true || (read > indexed && read >= 2 * indexed) };
    },

    /** Builds every contract a crash left catching up with its list read whole. */
    async finish(): Promise<RebuildStats[]> {
      const { rows } = await pool.query<{ address: string }>(
        `SELECT c.address FROM idx_contracts c
         JOIN log_lists l ON l.path = '/v1/events/' || c.address
         WHERE c.catching_up AND l.complete ORDER BY c.id`,
      );
      const built: RebuildStats[] = [];
      for (const { address } of rows) {
        const stats = await build(address);
        if (stats) built.push(stats);
      }
      return built;
    },
  };
}

export type FirstRead = ReturnType<typeof createFirstRead>;
