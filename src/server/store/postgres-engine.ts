import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { withClient } from '../database/held-client';
import { migrate } from '../database/migrations';
import { chunkChecksum, decodeChunk, encodeChunk } from './chunk-codec';
import type { Chunk, ListMeta, StoreEngine } from './engine';
import { createKeyedMutex } from './exclusive';

/**
 * The event store's engine, on PostgreSQL: the server's own embedded one, or one that
 * every instance shares (DATABASE_URL), so a list read by one is there for all, and
 * `exclusive` takes a PostgreSQL advisory lock, so one instance at a time reads a list's
 * head or depth while the others wait and then find its result. Chunks are binary values
 * (chunk-codec.ts). The same database keeps the upstream's request budget (budget.ts) and
 * its usage count, so the instances spend one budget and one quota together. Its tables
 * are made by database/migrations.ts.
 *
 * Locks are held on connections of their own: a waiter holds one while it waits, and
 * reading and writing must never queue behind waiters.
 */
// Advisory locks are 64-bit numbers: one namespace for the store's list locks (the
// schema's lock is in database/migrations.ts).
const LOCK_SALT = 0x5e7;
const CHUNK_BATCH = 4;

interface ListRow {
  list: string;
  generation: string;
  first: string;
  next: string;
  complete: boolean;
  frontier: string | null;
  head_checked_at: string;
  fetched_at: string;
  bytes: string;
  used_at: string;
}

interface ChunkRow {
  first: string;
  data: Buffer;
  checksum: number | null;
}

const metaOf = (row: ListRow): ListMeta => ({
  generation: Number(row.generation),
  first: Number(row.first),
  next: Number(row.next),
  complete: row.complete,
  frontier: row.frontier,
  headCheckedAt: Number(row.head_checked_at),
  fetchedAt: Number(row.fetched_at),
  bytes: Number(row.bytes),
});

export interface PostgresEngineOptions {
  connectionString: string;
  /** Connections for reads and writes. */
  poolSize?: number;
  /** Connections that may wait for or hold a list's lock at once. */
  lockPoolSize?: number;
  /**
   * Free space kept on the database's disk, when it is on this machine (the embedded
   * PostgreSQL, or one whose data directory this process can see): a commit that would
   * leave less is refused as the disk being full (SQLSTATE 53100) before PostgreSQL is
   * asked. PostgreSQL refuses a table that cannot grow cleanly, but a write-ahead log that
   * cannot grow stops it altogether (PANIC), and it cannot start again until space is
   * freed: the reserve keeps room for its log. Default 64 MB (four log segments).
   */
  diskReserveBytes?: number;
  /**
   * Longest wait for a connection and for one statement's answer (default 20 s): a
   * PostgreSQL that stopped answering (frozen, its host unreachable) fails the requests
   * that need it, as one that is down does, instead of holding them for ever. Not for
   * the lock connections, whose waits are other servers' upstream reads.
   */
  queryTimeoutMs?: number;
  /**
   * Runs inside `commit`'s transaction, after the chunks and the list's state are
   * written: whatever it writes commits or rolls back with them.
   */
  onCommit?: (
    client: pg.PoolClient,
    list: string,
    chunks: Chunk[],
    meta: ListMeta,
  ) => Promise<void>;
}

const DISK_RESERVE_BYTES = 64 * 1024 * 1024;
const QUERY_TIMEOUT_MS = 20_000;
// A commit's chunks are written to the table and to the log, with room for index rows.
const WRITE_FACTOR = 3;

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

/**
 * The bytes free on the disk of the database's data directory, when this process can
 * see it (same machine): undefined otherwise, and then nothing is checked.
 */
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

/** The engine, with its pool for the other tables kept in the same database. */
export type PostgresEngine = StoreEngine & { pool: pg.Pool };

export async function openPostgresEngine(options: PostgresEngineOptions): Promise<PostgresEngine> {
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

  // Several instances may start at once: one brings the schema up to date, the others
  // wait for it.
  try {
    await migrate(pool);
  } catch (error) {
    await Promise.all([pool.end(), locks.end()]);
    throw error;
  }

  const reserve = options.diskReserveBytes ?? DISK_RESERVE_BYTES;
  const dataDirectory = reserve > 0 ? await localDataDirectory(pool) : undefined;
  /** Refuses a write of `bytes` that would eat into the disk's reserve. */
  const checkDisk = async (bytes: number) => {
    if (!dataDirectory) return;
    const stats = await statfs(dataDirectory).catch(() => undefined);
    if (!stats) return;
    const available = stats.bavail * stats.bsize;
    if (available - bytes * WRITE_FACTOR < reserve) throw new DiskFullError(available, reserve);
  };

  // Each chunk is checked against its checksum as it is decoded (chunk-codec.ts).
  const chunksOf = (list: string, rows: ChunkRow[]): Chunk[] =>
    rows.map((row) => decodeChunk(Number(row.first), row.data, row.checksum, list));

  const dropList = async (client: pg.PoolClient, list: string) => {
    await client.query('DELETE FROM store_chunks WHERE list = $1', [list]);
    await client.query('DELETE FROM store_keys WHERE list = $1', [list]);
  };

  // Identities are kept as 16 bytes of their SHA-256, so the index stays small.
  const keyHash = (key: string) => createHash('sha256').update(key).digest().subarray(0, 16);

  return {
    kind: 'postgres',
    pool,

    async read(list) {
      const { rows } = await pool.query<ListRow>('SELECT * FROM store_lists WHERE list = $1', [
        list,
      ]);
      return rows[0] ? metaOf(rows[0]) : undefined;
    },

    async chunksFrom(list, generation, seq, minBytes) {
      // From the chunk holding `seq`: the last starting at or before it, if it reaches it.
      const found: Chunk[] = [];
      let bytes = 0;
      let from = seq;
      const { rows: holding } = await pool.query<ChunkRow & { count: number }>(
        `SELECT first, data, checksum, count FROM store_chunks
          WHERE list = $1 AND generation = $2 AND first <= $3 ORDER BY first DESC LIMIT 1`,
        [list, generation, seq],
      );
      const held = holding[0];
      if (held && seq < Number(held.first) + held.count) {
        found.push(...chunksOf(list, [held]));
        bytes += found[0]!.body.byteLength;
        from = Number(held.first) + held.count;
      }
      while (bytes < minBytes) {
        const { rows } = await pool.query<ChunkRow>(
          `SELECT first, data, checksum FROM store_chunks
            WHERE list = $1 AND generation = $2 AND first >= $3 ORDER BY first LIMIT $4`,
          [list, generation, from, CHUNK_BATCH],
        );
        for (const chunk of chunksOf(list, rows)) {
          found.push(chunk);
          bytes += chunk.body.byteLength;
          from = chunk.first + chunk.ends.length;
          if (bytes >= minBytes) break;
        }
        if (rows.length < CHUNK_BATCH) break;
      }
      return found;
    },

    async chunksBefore(list, generation, seq, minBytes) {
      const found: Chunk[] = [];
      let bytes = 0;
      let before = seq;
      for (;;) {
        const { rows } = await pool.query<ChunkRow>(
          `SELECT first, data, checksum FROM store_chunks
            WHERE list = $1 AND generation = $2 AND first < $3 ORDER BY first DESC LIMIT $4`,
          [list, generation, before, CHUNK_BATCH],
        );
        for (const chunk of chunksOf(list, rows)) {
          found.push(chunk);
          bytes += chunk.body.byteLength;
          before = chunk.first;
          if (bytes >= minBytes) return found;
        }
        if (rows.length < CHUNK_BATCH) return found;
      }
    },

    async storedKeys(list, generation, keys) {
      if (keys.length === 0) return new Set();
      const hashes = new Map(keys.map((key) => [keyHash(key).toString('hex'), key]));
      const { rows } = await pool.query<{ key: Buffer }>(
        `SELECT key FROM store_keys
          WHERE list = $1 AND generation = $2 AND key = ANY($3::bytea[])`,
        [list, generation, [...hashes.keys()].map((hex) => Buffer.from(hex, 'hex'))],
      );
      return new Set(rows.map((row) => hashes.get(row.key.toString('hex'))!));
    },

    async commit(list, meta, added, replace = false, keys = []) {
      await checkDisk(added.reduce((sum, chunk) => sum + chunk.body.byteLength, 0));
      await transaction(async (client) => {
        if (replace) await dropList(client, list);
        if (keys.length > 0) {
          await client.query(
            `INSERT INTO store_keys (list, generation, key)
             SELECT $1, $2, unnest($3::bytea[]) ON CONFLICT DO NOTHING`,
            [list, meta.generation, keys.map(keyHash)],
          );
        }
        for (const chunk of added) {
          const data = encodeChunk(chunk);
          await client.query(
            `INSERT INTO store_chunks (list, generation, first, data, count, bytes, checksum)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [
              list,
              meta.generation,
              chunk.first,
              data,
              chunk.ends.length,
              chunk.body.byteLength,
              chunkChecksum(data),
            ],
          );
        }
        await client.query(
          `INSERT INTO store_lists
             (list, generation, first, next, complete, frontier, head_checked_at, fetched_at, bytes, used_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (list) DO UPDATE SET
             generation = $2, first = $3, next = $4, complete = $5, frontier = $6,
             head_checked_at = $7, fetched_at = $8, bytes = $9`,
          [
            list,
            meta.generation,
            meta.first,
            meta.next,
            meta.complete,
            meta.frontier,
            meta.headCheckedAt,
            meta.fetchedAt,
            meta.bytes,
            Date.now(),
          ],
        );
        await options.onCommit?.(client, list, added, meta);
      });
    },

    exclusive(list, task) {
      return mutex.run(list, () =>
        withClient(locks, async (client, lost) => {
          await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_SALT, list]);
          const [outcome] = await Promise.allSettled([task()]);
          // A failed unlock means the connection is gone, and its locks with it.
          const unlocked = await client
            .query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_SALT, list])
            .then(
              () => undefined,
              (error: Error) => error,
            );
          if (outcome.status === 'rejected') throw outcome.reason;
          // The connection broke while the task ran: others may have read the list too.
          const failure = lost() ?? unlocked;
          if (failure) {
            throw new Error(
              `the database connection holding the lock of list ${list} failed: ${failure.message}`,
            );
          }
          return outcome.value;
        }),
      );
    },

    async touch(list, at) {
      await pool.query('UPDATE store_lists SET used_at = $2 WHERE list = $1 AND used_at < $2', [
        list,
        at,
      ]);
    },

    async evict(maxBytes, keep) {
      const { rows } = await pool.query<{ list: string; bytes: string }>(
        'SELECT list, bytes FROM store_lists ORDER BY used_at',
      );
      let total = rows.reduce((sum, row) => sum + Number(row.bytes), 0);
      let dropped = 0;
      for (const row of rows) {
        if (total <= maxBytes) break;
        if (row.list === keep || mutex.busy(row.list)) continue;
        // A list some instance is reading from the upstream is in use: skip it for now.
        const evicted = await transaction(async (client) => {
          const { rows: lock } = await client.query<{ locked: boolean }>(
            'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked',
            [LOCK_SALT, row.list],
          );
          if (!lock[0]?.locked) return false;
          await dropList(client, row.list);
          await client.query('DELETE FROM store_lists WHERE list = $1', [row.list]);
          return true;
        });
        if (evicted) {
          total -= Number(row.bytes);
          dropped += 1;
        }
      }
      return dropped;
    },

    async stats() {
      const { rows } = await pool.query<{ lists: string; bytes: string }>(
        'SELECT count(*) AS lists, coalesce(sum(bytes), 0) AS bytes FROM store_lists',
      );
      return { lists: Number(rows[0]?.lists ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
    },

    async addUsage(hour, requests) {
      await pool.query(
        `INSERT INTO upstream_usage (hour, requests) VALUES ($1, $2)
         ON CONFLICT (hour) DO UPDATE SET requests = upstream_usage.requests + $2`,
        [hour, requests],
      );
    },

    async usageSince(hour) {
      const { rows } = await pool.query<{ total: string }>(
        'SELECT coalesce(sum(requests), 0) AS total FROM upstream_usage WHERE hour >= $1',
        [hour],
      );
      return Number(rows[0]?.total ?? 0);
    },

    async setting(name, create) {
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
      await Promise.all([pool.end(), locks.end()]);
    },
  };
}
