import type pg from 'pg';
import type { Coverage, WalkProgress } from '../../lib/answers';

interface ContractRow {
  id: number;
  complete: boolean;
  oldest_ts: string | null;
  newest_ts: string | null;
  records: string;
  head_read_at: string | null;
  upstream_failure: string | null;
  upstream_failure_at: string | null;
  walk_fault: string | null;
}

const iso = (ms: string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export async function coverageOf(
  pool: pg.Pool,
  address: string,
  progress: WalkProgress | undefined,
): Promise<{ id: number | undefined; coverage: Coverage }> {
  // The head's time is the event store's own: when the list was last read from its newest.
  const { rows } = await pool.query<ContractRow>(
    `SELECT c.id, c.complete, c.oldest_ts, c.newest_ts, c.records,
       l.head_checked_at AS head_read_at, c.upstream_failure, c.upstream_failure_at, c.walk_fault
     FROM idx_contracts c LEFT JOIN store_lists l ON l.list = '/v1/events/' || c.address
     WHERE c.address = $1`,
    [address],
  );
  const row = rows[0];
  const indexedBack = row?.oldest_ts ? Number(row.oldest_ts) : null;
  const complete = row?.complete ?? false;
  const upstream = row?.upstream_failure
    ? { failure: row.upstream_failure, since: iso(row.upstream_failure_at)! }
    : null;
  const reading = progress?.state === 'reading' ? progress : null;
  const parts = [
    complete
      ? 'The whole history is indexed.'
      : indexedBack === null
        ? 'Nothing of this collection is indexed yet.'
        : `Indexed back to ${day(indexedBack)}; older events are not counted yet.`,
  ];
  // A walk after the history is whole only reads what is new: not worth a word.
  if (reading && !complete) parts.push('The indexer is reading its history now.');
  if (upstream) {
    parts.push(
      `The Token Events Service could not be asked (${upstream.failure}); this answer comes from stored data.`,
    );
  }
  if (row?.walk_fault) parts.push(row.walk_fault);
  return {
    id: row?.id,
    coverage: {
      complete,
      indexedBack,
      newest: row?.newest_ts ? Number(row.newest_ts) : null,
      records: Number(row?.records ?? 0),
      headReadAt: iso(row?.head_read_at ?? null),
      indexing: reading,
      upstream,
      fault: row?.walk_fault ?? null,
      statement: parts.join(' '),
    },
  };
}
