import type pg from 'pg';
import { replicaLagNote, type Coverage, type WalkProgress } from '../../lib/answers';
import { formatUtcDay } from '../../lib/utc';

interface ContractRow {
  id: number;
  complete: boolean;
  oldest_ts: string | null;
  newest_ts: string | null;
  records: string;
  catching_up: boolean;
  read: string | null;
  head_read_at: string | null;
  gap: boolean | null;
  upstream_failure: string | null;
  upstream_failure_at: string | null;
  fault: string | null;
  verified_at: string | null;
  removed: number | null;
  verifying: boolean | null;
}

const iso = (ms: string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());
const count = (n: number) => n.toLocaleString('en-US');

/**
 * How much of a contract's history an answer knows, and how fresh it is, from the index
 * and the record log's state of its list; `faults` are the server's (a refused key, a
 * full disk…), said in every answer; `lagSeconds`, how far behind the primary the replica
 * read is, when past the bound where answers say so.
 */
export async function coverageOf(
  pool: pg.Pool,
  address: string,
  progress: WalkProgress | undefined,
  faults: readonly string[] = [],
  lagSeconds: number | null = null,
): Promise<{ id: number | undefined; coverage: Coverage }> {
  const { rows } = await pool.query<ContractRow>(
    `SELECT c.id, c.complete, c.oldest_ts, c.newest_ts, c.records, c.catching_up,
       l.records AS read,
       nullif(l.head_checked_at, 0) AS head_read_at, l.gap_ts IS NOT NULL AS gap,
       c.upstream_failure, c.upstream_failure_at, l.fault, l.verified_at, l.removed,
       l.verify_run IS NOT NULL AS verifying
     FROM idx_contracts c LEFT JOIN log_lists l ON l.path = '/v1/events/' || c.address
     WHERE c.address = $1`,
    [address],
  );
  const row = rows[0];
  const indexedBack = row?.oldest_ts ? Number(row.oldest_ts) : null;
  // A head read cut short leaves a span of new records unread: not whole until it closes.
  // A first read catching up is not whole until its last build.
  const complete = (row?.complete ?? false) && !row?.gap && !row?.catching_up;
  const upstream = row?.upstream_failure
    ? { failure: row.upstream_failure, since: iso(row.upstream_failure_at)! }
    : null;
  const reading = progress?.state === 'reading' ? progress : null;
  // A first read stored in the log alone: the index holds what its last build read.
  const catchingUp = row?.catching_up ? Number(row.records) : null;
  const records = Number((catchingUp !== null ? row?.read : row?.records) ?? 0);
  const parts = [
    complete
      ? 'The whole history is indexed.'
      : indexedBack === null
        ? 'Nothing of this collection is indexed yet.'
        : `Indexed back to ${formatUtcDay(indexedBack)}; older events are not counted yet.`,
  ];
  // A walk after the history is whole only reads what is new: not worth a word.
  if (reading && !complete) parts.push('The indexer is reading its history now.');
  if (catchingUp !== null) {
    parts.push(
      `The index is catching up with what was read: ${count(catchingUp)} of ` +
        `${count(records)} records indexed; the figures count those.`,
    );
  }
  if (upstream) {
    parts.push(
      `The Token Events Service could not be asked (${upstream.failure}); this answer comes from stored data.`,
    );
  }
  if (row?.gap)
    parts.push('Its newest events are being read; some recent ones are not counted yet.');
  if (row?.fault) parts.push(row.fault);
  const removed = row?.removed ?? 0;
  if (removed > 0) {
    parts.push(
      `${removed} record${removed === 1 ? '' : 's'} the service no longer lists ` +
        `${removed === 1 ? 'is' : 'are'} kept in the log and left out of every figure.`,
    );
  }
  if (lagSeconds !== null) parts.push(replicaLagNote(lagSeconds));
  parts.push(...faults);
  return {
    id: row?.id,
    coverage: {
      complete,
      indexedBack,
      newest: row?.newest_ts ? Number(row.newest_ts) : null,
      records,
      catchingUp,
      headReadAt: iso(row?.head_read_at ?? null),
      indexing: reading,
      upstream,
      fault: row?.fault ?? null,
      verifiedAt: iso(row?.verified_at ?? null),
      removed,
      replicaLagSeconds: lagSeconds,
      faults: [...faults],
      statement: parts.join(' '),
    },
  };
}
