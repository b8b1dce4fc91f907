import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { databaseFailure } from '../database/database-error';
import { withClient } from '../database/held-client';
import type { ServerFaults } from '../server-faults';
import { migrate } from '../database/migrations';
import { createKeyedMutex } from './exclusive';
import { keyHash, type StoredRecord } from './list-page';
import { createLockSession } from './lock-session';
import type { LogPosition } from './log-cursor';

/**
 * The record log on PostgreSQL (tables in log-schema.ts): every record the service sent, kept
 * for good, and each list's reading state. The embedded PostgreSQL or one every server
 * shares (DATABASE_URL): `exclusive` takes an advisory lock, so one server at a time reads
 * a list from the service while the others wait and then find its records. The same
 * database keeps the upstream's request budget (budget.ts) and its monthly usage.
 *
 * Lock connections are a pool of their own: a waiter holds one while it waits, and reads
 * and writes must never queue behind waiters.
 */
export interface ListState {
  id: number;
  path: string;
  stable: boolean;
  /** Its depth was read to the end once. */
  complete: boolean;
  /** The service's cursor reading on past the deepest record (newest-first lists). */
  frontier: string | null;
  /** A head read that has not yet met what was stored before it: where it reads on… */
  gapCursor: string | null;
  /** …and the newest time stored when it began (it ends past a record older than that). */
  gapTs: number | null;
  headCheckedAt: number;
  records: number;
  /** Why reading it was stopped (a cursor that loops, pages empty for ever). */
  fault: string | null;
  verifiedAt: number | null;
  /** The verification pass under way: its start (ms), its cursor, what it found so far. */
  verifyRun: number | null;
  /** The last record logged when the run began: only those can be found removed. */
  verifySeq: number | null;
  verifyCursor: string | null;
  verifyPages: number;
  verifyAdded: number;
  verifyChanged: number;
  /** Records the service no longer lists (kept, marked `removed_at`). */
  removed: number;
}

type Patch = Partial<Omit<ListState, 'id' | 'path' | 'stable' | 'records'>>;

const COLUMNS: Record<keyof Patch, string> = {
  complete: 'complete',
  frontier: 'frontier',
  gapCursor: 'gap_cursor',
  gapTs: 'gap_ts',
  headCheckedAt: 'head_checked_at',
  fault: 'fault',
  verifiedAt: 'verified_at',
  verifyRun: 'verify_run',
  verifySeq: 'verify_seq',
  verifyCursor: 'verify_cursor',
  verifyPages: 'verify_pages',
  verifyAdded: 'verify_added',
  verifyChanged: 'verify_changed',
  removed: 'removed',
};

interface ListRow {
  id: number;
  path: string;
  stable: boolean;
  complete: boolean;
  frontier: string | null;
  gap_cursor: string | null;
  gap_ts: string | null;
  head_checked_at: string;
  records: string;
  fault: string | null;
  verified_at: string | null;
  verify_run: string | null;
  verify_seq: string | null;
  verify_cursor: string | null;
  verify_pages: number;
  verify_added: number;
  verify_changed: number;
  removed: number;
}

const orNull = (value: string | null) => (value === null ? null : Number(value));

const stateOf = (row: ListRow): ListState => ({
  id: row.id,
  path: row.path,
  stable: row.stable,
  complete: row.complete,
  frontier: row.frontier,
  gapCursor: row.gap_cursor,
  gapTs: orNull(row.gap_ts),
  headCheckedAt: Number(row.head_checked_at),
  records: Number(row.records),
  fault: row.fault,
  verifiedAt: orNull(row.verified_at),
  verifyRun: orNull(row.verify_run),
  verifySeq: orNull(row.verify_seq),
  verifyCursor: row.verify_cursor,
  verifyPages: row.verify_pages,
  verifyAdded: row.verify_added,
  verifyChanged: row.verify_changed,
  removed: row.removed,
});

export type { LogPosition } from './log-cursor';

export interface LoggedRecord {
  body: Buffer;
  ts: number;
  seq: number;
}

/** What a commit added: records new to the list, and records the service sent changed. */
export interface Committed {
  state: ListState;
  added: number;
  changed: number;
}

export type CommitHook = (
  client: pg.PoolClient,
  path: string,
  /** The texts of records new to the list. */
  texts: readonly string[],
  state: ListState,
  /** The service sent some known records with other content, or listed removed ones again. */
  changed: boolean,
  // Work that must follow the commit in a transaction of its own (the index built from
  // the log): the commit's caller waits for it.
) => Promise<void | AfterCommit>;

type AfterCommit = () => Promise<unknown>;
const afterCommit = (result: void | AfterCommit) =>
  typeof result === 'function' ? result : undefined;

export interface RecordLogOptions {
  connectionString: string;
  poolSize?: number;
  lockPoolSize?: number;
  /**
   * Free space kept on the database's disk, when it is on this machine (the embedded
   * PostgreSQL): a commit that would leave less is refused as the disk being full (SQLSTATE
   * 53100) before PostgreSQL is asked. A table that cannot grow fails cleanly, but a
   * write-ahead log that cannot grow stops PostgreSQL until space is freed. Default 64 MB.
   */
  diskReserveBytes?: number;
  /**
   * Longest wait for a connection and for a statement (default 20 s): a PostgreSQL that
   * stopped answering fails the requests that need it instead of holding them for ever.
   */
  queryTimeoutMs?: number;
  /** Runs inside each commit's transaction: what it writes commits or rolls back with it. */
  onCommit?: CommitHook;
  /** Told when the disk fills and when writing works again. */
  faults?: ServerFaults;
}

const LOCK_SALT = 0x5e7;
const DISK_RESERVE_BYTES = 64 * 1024 * 1024;
const QUERY_TIMEOUT_MS = 20_000;
// A record is written to the table, its indexes and the write-ahead log, with index rows.
const WRITE_FACTOR = 3;
// Rows read at a time to fill one page up to its byte cap.
const PAGE_BATCH = 500;

/** The database's disk is full, or would be within the reserve: as PostgreSQL's 53100. */
export class DiskFullError extends Error {
  readonly code = '53100';
  constructor(available: number, reserve: number) {
    super(
      `the database's disk has ${mb(available)} MB free, within the ${mb(reserve)} MB kept ` +
        'for PostgreSQL: nothing more is stored until space is freed',
    );
    this.name = 'DiskFullError';
  }
}

const mb = (bytes: number) => Math.max(0, Math.round(bytes / 1024 / 1024));

async function localDataDirectory(pool: pg.Pool): Promise<string | undefined> {
  try {
    const { rows } = await pool.query<{ dir: string }>(
      "SELECT current_setting('data_directory') AS dir",
    );
    const dir = rows[0]?.dir;
    return dir && existsSync(join(dir, 'PG_VERSION')) ? dir : undefined;
  } catch {
    // Not a superuser (a shared database): its disk is its operator's to watch.
    return undefined;
  }
}

/** Each record once, the first of a page's repeats. */
function distinct(records: readonly StoredRecord[]): StoredRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => !seen.has(record.key) && seen.add(record.key));
}

// New records, and known ones the service now sends otherwise or lists again after they
// were marked removed; a record sent as it was is left alone (and not returned).
const INSERT_RECORDS = `
INSERT INTO log_records AS r (list_id, key, ts, body, seen)
SELECT $1, k, t, b, $5 FROM unnest($2::bytea[], $3::bigint[], $4::bytea[]) WITH ORDINALITY
  AS u(k, t, b, n) ORDER BY n
ON CONFLICT (list_id, key) DO UPDATE SET body = excluded.body, ts = excluded.ts,
  removed_at = NULL, seen = excluded.seen
WHERE r.body <> excluded.body OR r.removed_at IS NOT NULL
RETURNING (xmax = 0) AS inserted, body`;

export async function openRecordLog(options: RecordLogOptions) {
  const timeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  const locks = new pg.Pool({
    connectionString: options.connectionString,
    max: options.lockPoolSize ?? 8,
    connectionTimeoutMillis: timeoutMs,
  });
  // An idle connection the server closes (restart, failover) must not crash the process.
  pool.on('error', () => {});
  locks.on('error', () => {});
  const mutex = createKeyedMutex();
  const lockSession = createLockSession(locks, LOCK_SALT);
  try {
    await migrate(pool);
  } catch (error) {
    await Promise.all([pool.end(), locks.end()]);
    throw error;
  }

  const reserve = options.diskReserveBytes ?? DISK_RESERVE_BYTES;
  const dataDirectory = reserve > 0 ? await localDataDirectory(pool) : undefined;
  const checkDisk = async (bytes: number) => {
    if (!dataDirectory) return;
    const stats = await statfs(dataDirectory).catch(() => undefined);
    if (!stats) return;
    const available = stats.bavail * stats.bsize;
    if (available - bytes * WRITE_FACTOR < reserve) throw new DiskFullError(available, reserve);
  };

  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    withClient(pool, async (client) => {
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    });

  /** A write, whose failure for want of disk (ours or PostgreSQL's) is a server fault. */
  async function written<T>(work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      options.faults?.clear('disk');
      return result;
    } catch (error) {
      if (databaseFailure(error) === 'full') {
        options.faults?.set(
          'disk',
          `The dashboard's database has no room left (${(error as Error).message}); ` +
            'nothing new is stored until space is freed, and answers come from what is stored.',
        );
      }
      throw error;
    }
  }

  const setClause = (patch: Patch, from: number) => {
    const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
    return {
      sql: entries.map(([name], index) => `${COLUMNS[name as keyof Patch]} = $${from + index}`),
      values: entries.map(([, value]) => value),
    };
  };

  async function state(path: string): Promise<ListState | undefined> {
    const { rows } = await pool.query<ListRow>('SELECT * FROM log_lists WHERE path = $1', [path]);
    return rows[0] && stateOf(rows[0]);
  }

  return {
    pool,
    state,

    /** The list's state, the list made (empty, nothing read) when it has none. */
    async list(path: string, stable: boolean): Promise<ListState> {
      const found = await state(path);
      if (found) return found;
      await pool.query(
        'INSERT INTO log_lists (path, stable) VALUES ($1, $2) ON CONFLICT (path) DO NOTHING',
        [path, stable],
      );
      return (await state(path))!;
    },

    /**
     * Adds a page's records to the list and moves its state on, in one transaction with
     * the commit hook (the index). `seen` marks the records as met by a verification run.
     */
    async commit(
      list: ListState,
      records: readonly StoredRecord[],
      patch: Patch,
      seen = 0,
    ): Promise<Committed> {
      const unique = distinct(records);
      let after: AfterCommit | undefined;
      const committed = await written(async () => {
        await checkDisk(unique.reduce((sum, record) => sum + record.json.byteLength, 0));
        return transaction(async (client) => {
          let added: Buffer[] = [];
          let changed = 0;
          if (unique.length > 0) {
            const keys = unique.map((record) => keyHash(record.key));
            const { rows } = await client.query<{ inserted: boolean; body: Buffer }>(
              INSERT_RECORDS,
              [
                list.id,
                keys,
                unique.map((record) => Math.trunc(record.ts)),
                unique.map((record) => Buffer.from(record.json)),
                seen,
              ],
            );
            added = rows.filter((row) => row.inserted).map((row) => row.body);
            changed = rows.length - added.length;
            if (seen > 0) {
              await client.query(
                'UPDATE log_records SET seen = $3 WHERE list_id = $1 AND key = ANY($2::bytea[]) AND seen <> $3',
                [list.id, keys, seen],
              );
            }
          }
          const set = setClause(patch, 3);
          const { rows } = await client.query<ListRow>(
            `UPDATE log_lists SET records = records + $2
             ${set.sql.length > 0 ? ', ' + set.sql.join(', ') : ''}
           WHERE id = $1 RETURNING *`,
            [list.id, added.length, ...set.values],
          );
          const next = stateOf(rows[0]!);
          after = afterCommit(
            await options.onCommit?.(
              client,
              list.path,
              added.map((body) => body.toString()),
              next,
              changed > 0,
            ),
          );
          return { state: next, added: added.length, changed };
        });
      });
      if (after) await written(after);
      return committed;
    },

    /** Moves a list's state on without records. */
    async update(list: ListState, patch: Patch): Promise<ListState> {
      const set = setClause(patch, 2);
      if (set.sql.length === 0) return list;
      const { rows } = await pool.query<ListRow>(
        `UPDATE log_lists SET ${set.sql.join(', ')} WHERE id = $1 RETURNING *`,
        [list.id, ...set.values],
      );
      return stateOf(rows[0]!);
    },

    /**
     * Ends a verification run: records of the list's depth at the run's start that it did
     * not meet are marked removed (kept); the hook is told, as for a change.
     */
    async endVerification(list: ListState, time: number) {
      let after: AfterCommit | undefined;
      const ended = await transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE log_records SET removed_at = $4 WHERE list_id = $1 AND removed_at IS NULL
             AND seen <> $2 AND seq <= $3`,
          [list.id, list.verifyRun, list.verifySeq, time],
        );
        const removed = rowCount ?? 0;
        const { rows } = await client.query<ListRow>(
          `UPDATE log_lists SET removed = (SELECT count(*) FROM log_records
             WHERE list_id = $1 AND removed_at IS NOT NULL),
             records = (SELECT count(*) FROM log_records WHERE list_id = $1 AND removed_at IS NULL),
             verified_at = $2, verify_run = NULL, verify_seq = NULL, verify_cursor = NULL
           WHERE id = $1 RETURNING *`,
          [list.id, time],
        );
        const next = stateOf(rows[0]!);
        if (removed > 0) {
          after = afterCommit(await options.onCommit?.(client, list.path, [], next, true));
        }
        return { state: next, removed };
      });
      if (after) await written(after);
      return ended;
    },

    /** The last record's place in the log so far (0: none). */
    async lastSeq(): Promise<number> {
      const { rows } = await pool.query<{ seq: string | null }>(
        'SELECT max(seq) AS seq FROM log_records',
      );
      return Number(rows[0]?.seq ?? 0);
    },

    /** The newest or the oldest time of the list's records listed now. */
    async edge(list: ListState, which: 'newest' | 'oldest'): Promise<number | null> {
      const { rows } = await pool.query<{ ts: string }>(
        `SELECT ts FROM log_records WHERE list_id = $1 AND removed_at IS NULL
          ORDER BY ts ${which === 'newest' ? 'DESC' : 'ASC'} LIMIT 1`,
        [list.id],
      );
      return rows[0] ? Number(rows[0].ts) : null;
    },

    /**
     * Records after `after`, in the list's order (a contract's events newest first, other
     * lists as the service sent them), up to `limit` and `maxBytes` of record text.
     */
    async page(
      list: ListState,
      after: LogPosition | null,
      limit: number,
      maxBytes: number,
    ): Promise<{ records: LoggedRecord[]; more: boolean }> {
      const records: LoggedRecord[] = [];
      let bytes = 0;
      let position = after;
      for (;;) {
        const batch = Math.min(PAGE_BATCH, limit - records.length + 1);
        // A stable list's query has no time: PostgreSQL refuses a parameter it cannot type.
        const { rows } = await pool.query<{ body: Buffer; ts: string; seq: string }>(
          list.stable
            ? `SELECT body, ts, seq FROM log_records WHERE list_id = $1 AND removed_at IS NULL
                 AND seq > $2 ORDER BY seq LIMIT $3`
            : `SELECT body, ts, seq FROM log_records WHERE list_id = $1 AND removed_at IS NULL
                 AND ts <= $2 AND (ts < $2 OR seq > $3) ORDER BY ts DESC, seq LIMIT $4`,
          // Every parameter must appear in its query: PostgreSQL cannot type one that does not.
          list.stable
            ? [list.id, position?.seq ?? 0, batch]
            : [list.id, position?.ts ?? Number.MAX_SAFE_INTEGER, position?.seq ?? 0, batch],
        );
        for (const row of rows) {
          const size = row.body.byteLength + 1;
          if (records.length >= limit || (records.length > 0 && bytes + size > maxBytes)) {
            return { records, more: true };
          }
          bytes += size;
          const record = { body: row.body, ts: Number(row.ts), seq: Number(row.seq) };
          records.push(record);
          position = record;
        }
        if (rows.length < batch) return { records, more: false };
      }
    },

    /**
     * Runs `task` while no other caller for the same list runs one, in this process or in
     * any server sharing the database: one upstream read per list at a time.
     */
    exclusive<T>(path: string, task: () => Promise<T>): Promise<T> {
      return mutex.run(path, async () => {
        const release = await lockSession.take(path);
        if (release) {
          const [outcome] = await Promise.allSettled([task()]);
          const lost = await release();
          if (outcome.status === 'rejected') throw outcome.reason;
          if (lost) {
            throw new Error(
              `the database connection holding the lock of list ${path} failed: ${lost.message}`,
            );
          }
          return outcome.value;
        }
        // Another server reads the list: waited for on a connection of its own.
        return withClient(locks, async (client, lost) => {
          await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_SALT, path]);
          const [outcome] = await Promise.allSettled([task()]);
          // A failed unlock means the connection is gone, and its locks with it.
          const unlocked = await client
            .query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SALT, path])
            .then(
              () => undefined,
              (error: Error) => error,
            );
          if (outcome.status === 'rejected') throw outcome.reason;
          const failure = lost() ?? unlocked;
          if (failure) {
            throw new Error(
              `the database connection holding the lock of list ${path} failed: ${failure.message}`,
            );
          }
          return outcome.value;
        });
      });
    },

    async stats(): Promise<{ lists: number; records: number; bytes: number }> {
      const { rows } = await pool.query<{ lists: string; records: string; bytes: string }>(
        `SELECT (SELECT count(*) FROM log_lists) AS lists,
           (SELECT coalesce(sum(records), 0) FROM log_lists) AS records,
           pg_total_relation_size('log_records') AS bytes`,
      );
      const row = rows[0];
      return {
        lists: Number(row?.lists),
        records: Number(row?.records),
        bytes: Number(row?.bytes),
      };
    },

    async addUsage(hour: number, requests: number) {
      await pool.query(
        `INSERT INTO upstream_usage (hour, requests) VALUES ($1, $2)
         ON CONFLICT (hour) DO UPDATE SET requests = upstream_usage.requests + $2`,
        [hour, requests],
      );
    },

    async usageSince(hour: number): Promise<number> {
      const { rows } = await pool.query<{ total: string }>(
        'SELECT coalesce(sum(requests), 0) AS total FROM upstream_usage WHERE hour >= $1',
        [hour],
      );
      return Number(rows[0]?.total ?? 0);
    },

    /** A value kept in the database (the cursor secret), set once by whoever comes first. */
    async setting(name: string, create: () => string): Promise<string> {
      await pool.query(
        'INSERT INTO store_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
        [name, create()],
      );
      const { rows } = await pool.query<{ value: string }>(
        'SELECT value FROM store_settings WHERE name = $1',
        [name],
      );
      return rows[0]!.value;
    },

    async close() {
      lockSession.close();
      await Promise.all([pool.end(), locks.end()]);
    },
  };
}

export type RecordLog = Awaited<ReturnType<typeof openRecordLog>>;
