import pg from 'pg';
import { databaseFailure } from './database-error';
import { createLagClock, lsnValue } from './replica-lag';

/**
 * Where the query API's index reads go: PostgreSQL's streaming replicas when there are
 * some (`DATABASE_REPLICA_URLS`), the primary otherwise. Everything that writes or locks
 * (the record log's commits, ingest, advisory locks, the budget, usage) never comes here:
 * it has the primary's pool.
 *
 * - Each replica is checked every `checkEveryMs`: whether it answers within
 *   `checkTimeoutMs` and is in recovery (a standby), and how far it has replayed. One
 *   that fails is skipped (`down`) and checked again at the same pace until it is back.
 *   A read that fails on a replica because it is down (or cancelled by a conflict with
 *   recovery) is read again from the primary, and the replica is marked down at once.
 * - Its lag (replica-lag.ts): within `noteLagMs` it is used as the primary would be;
 *   past it, still used, and the answer says how far behind it is (`lagging`); past
 *   `skipLagMs`, not used (`behind`) until it catches up.
 * - A request that just waited for a write of its own (`fresh`) reads a replica only if
 *   it has replayed the primary's WAL position taken after that write; else the primary.
 * - With no replica usable, the primary answers.
 */
export interface ReplicaSettings {
  urls: readonly string[];
  /** Past this lag, an answer read from the replica says so. */
  noteLagMs: number;
  /** Past this lag, the replica is not read until it catches up. */
  skipLagMs: number;
  checkEveryMs?: number;
  checkTimeoutMs?: number;
  /** A replica's pool's connections at most. */
  poolSize?: number;
}

export type ReplicaHealth = 'up' | 'lagging' | 'behind' | 'down';

export interface ReplicaStatus {
  /** host:port/database, never a password. */
  name: string;
  health: ReplicaHealth;
  /** Whole seconds behind the primary at the last check; null while down. */
  lagSeconds: number | null;
  /** Why it is down, in PostgreSQL's words. */
  failure: string | null;
}

export interface ReadChoice {
  pool: pg.Pool;
  /** The replica read, or null: the primary. */
  replica: string | null;
  /** Whole seconds the replica is behind when past `noteLagMs` (answers say so), else null. */
  lagSeconds: number | null;
}

export interface ReadPools {
  /** Where the next reads go; `fresh`: they must see what this process just wrote. */
  choose(options?: { fresh?: boolean }): Promise<ReadChoice>;
  /** Each replica's state, for `/metrics` and `/readyz`. */
  states(): ReplicaStatus[];
  /** Reads chosen so far, by where they went (`primary` or a replica's name). */
  reads(): Record<string, number>;
  /** Checks every replica now (start-up, tests). */
  check(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_CHECK_EVERY_MS = 1_000;
const DEFAULT_CHECK_TIMEOUT_MS = 2_000;
// Longest wait for a replica's connection and statement: a replica that stopped answering
// fails its reads, which the primary then answers.
const READ_TIMEOUT_MS = 20_000;
// SQLSTATE of a standby's query cancelled by a conflict with the WAL it replays.
const RECOVERY_CONFLICT = '40001';

interface Replica {
  name: string;
  pool: pg.Pool;
  /** Its reads, each read again from the primary when the replica fails it. */
  reading: pg.Pool;
  checks: pg.Pool;
  health: ReplicaHealth;
  lagMs: number | null;
  failure: string | null;
}

const nameOf = (url: string) => {
  const parsed = new URL(url);
  const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
  return `${host}:${parsed.port || 5432}${parsed.pathname}`;
};

export function createReadPools(
  primary: pg.Pool,
  settings?: ReplicaSettings,
  log: (line: string) => void = () => {},
): ReadPools {
  const checkEveryMs = settings?.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS;
  const timeoutMs = settings?.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const noteLagMs = settings?.noteLagMs ?? Infinity;
  const skipLagMs = settings?.skipLagMs ?? Infinity;
  const clock = createLagClock(skipLagMs + checkEveryMs);
  const counts: Record<string, number> = { primary: 0 };
  const PRIMARY: ReadChoice = { pool: primary, replica: null, lagSeconds: null };

  const setHealth = (replica: Replica, health: ReplicaHealth, failure: string | null = null) => {
    const was = replica.health;
    replica.health = health;
    replica.failure = failure;
    if (was === health) return;
    if (health === 'down') {
      log(
        `Replica ${replica.name} is not answering (${failure}): read from elsewhere until it is back.`,
      );
    } else if (health === 'behind') {
      log(`Replica ${replica.name} is too far behind the primary: not read until it catches up.`);
    } else if (was === 'down' || was === 'behind') {
      log(`Replica ${replica.name} is read again.`);
    }
  };

  const replicas: Replica[] = (settings?.urls ?? []).map((url) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: settings?.poolSize ?? 10,
      connectionTimeoutMillis: Math.min(READ_TIMEOUT_MS, 2 * timeoutMs),
      query_timeout: READ_TIMEOUT_MS,
    });
    const checks = new pg.Pool({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
    });
    const replica: Replica = {
      name: nameOf(url),
      pool,
      reading: pool,
      checks,
      // Nothing is read from it before its first check.
      health: 'down',
      lagMs: null,
      failure: 'not checked yet',
    };
    // An idle connection closed by a replica that stopped: it is down.
    pool.on('error', (error) => setHealth(replica, 'down', error.message));
    checks.on('error', () => {});
    replica.reading = readAgainOnPrimary(pool, primary, (error) => {
      if (databaseFailure(error) === 'down') setHealth(replica, 'down', error.message);
    });
    counts[replica.name] = 0;
    return replica;
  });

  const primaryLsn = async () => {
    const { rows } = await primary.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    );
    return lsnValue(rows[0]!.lsn);
  };

  const replayed = async (pool: pg.Pool) => {
    const { rows } = await pool.query<{ replay: string | null }>(
      'SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()::text END AS replay',
    );
    const replay = rows[0]?.replay;
    if (!replay) throw new Error('it is not a standby in recovery');
    return lsnValue(replay);
  };

  const checkOne = async (replica: Replica) => {
    try {
      const replay = await replayed(replica.checks);
      const lagMs = clock.lagMs(replay, Date.now());
      replica.lagMs = lagMs;
      setHealth(replica, lagMs > skipLagMs ? 'behind' : lagMs > noteLagMs ? 'lagging' : 'up');
    } catch (error) {
      replica.lagMs = null;
      setHealth(replica, 'down', (error as Error).message);
    }
  };

  let checking: Promise<void> | null = null;
  const check = async () => {
    if (replicas.length === 0) return;
    await (checking ??= (async () => {
      try {
        // The primary first: a replica read after it that has replayed this far is not behind.
        clock.primaryAt(Date.now(), await primaryLsn());
      } catch {
        // The primary is down: lags stay as they were measured; replicas are still checked.
      }
      await Promise.all(replicas.map(checkOne));
    })().finally(() => (checking = null)));
  };

  const timer = replicas.length > 0 ? setInterval(() => void check(), checkEveryMs) : undefined;
  timer?.unref();

  const busy = (pool: pg.Pool) => pool.totalCount - pool.idleCount + pool.waitingCount;
  let turn = 0;
  /** The least busy usable replica; ties taken in turn. */
  const pick = (healths: readonly ReplicaHealth[]) => {
    const usable = replicas.filter((replica) => healths.includes(replica.health));
    if (usable.length === 0) return undefined;
    turn = (turn + 1) % usable.length;
    const inTurn = [...usable.slice(turn), ...usable.slice(0, turn)];
    return inTurn.reduce((best, replica) =>
      busy(replica.pool) < busy(best.pool) ? replica : best,
    );
  };

  const caughtUp = async (replica: Replica) => {
    try {
      const target = await primaryLsn();
      return (await replayed(replica.reading)) >= target;
    } catch {
      return false;
    }
  };

  return {
    async choose(options) {
      // A lagging replica has not replayed a write just made: only those up are asked.
      const replica = pick(options?.fresh ? ['up'] : ['up', 'lagging']);
      if (!replica || (options?.fresh && !(await caughtUp(replica)))) {
        counts.primary!++;
        return PRIMARY;
      }
      counts[replica.name]!++;
      const lagging = replica.health === 'lagging' && replica.lagMs !== null;
      return {
        pool: replica.reading,
        replica: replica.name,
        lagSeconds: lagging ? Math.floor(replica.lagMs! / 1000) : null,
      };
    },
    states: () =>
      replicas.map(({ name, health, lagMs, failure }) => ({
        name,
        health,
        lagSeconds: lagMs === null ? null : Math.floor(lagMs / 1000),
        failure,
      })),
    reads: () => ({ ...counts }),
    check,
    async close() {
      clearInterval(timer);
      await checking;
      await Promise.all(replicas.flatMap((replica) => [replica.pool.end(), replica.checks.end()]));
    },
  };
}

/**
 * The replica's pool, whose `query` is read again on the primary when the replica fails
 * it as down or cancels it for a conflict with recovery: the index's reads are read-only,
 * so reading again is safe. Everything else is the replica's pool itself.
 */
function readAgainOnPrimary(
  replica: pg.Pool,
  primary: pg.Pool,
  failed: (error: Error) => void,
): pg.Pool {
  type Query = (...args: unknown[]) => Promise<unknown>;
  const query = (...args: unknown[]) =>
    (replica.query as Query)(...args).catch((error: unknown) => {
      const down = databaseFailure(error) === 'down';
      if (!down && (error as { code?: string }).code !== RECOVERY_CONFLICT) throw error;
      failed(error as Error);
      return (primary.query as Query)(...args);
    });
  return new Proxy(replica, {
    get: (target, key, receiver) =>
      key === 'query' ? query : (Reflect.get(target, key, receiver) as unknown),
  });
}
