import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerConfig, UpstreamConfig } from './config';
import { databaseFailure } from './database/database-error';
import { openDatabase } from './database/open-database';
import { createReadPools } from './database/read-pools';
import { claimUpstream } from './database/service-identity';
import type { ServerOptions } from './compose';
import { createMonitoring } from './monitoring';
import { openIndexedLog } from './index/open-index';
import type { RecordLog } from './log/record-log';
import { createServerFaults } from './server-faults';
import { createUpstreamBudget } from './upstream/budget';

// Waits between attempts to reach a shared database that is down at start-up.
const RETRY_SECONDS = [1, 2, 4, 8, 15, 30];
// How long closing waits for connections still held before stopping the database.
const CLOSE_WAIT_MS = 1_000;

/** The secret kept in the database: made by the first server, read by all the others. */
export const cursorSecret = (log: RecordLog) =>
  log.setting('cursor-secret', () => randomBytes(32).toString('hex'));

/**
 * What the server keeps beyond one process's memory, opened once at start-up: the
 * database (the embedded PostgreSQL in DATA_DIR, or DATABASE_URL's), the record log on it
 * feeding the index, the upstream's request budget and its usage count; and the
 * monitoring that reads them. With DATABASE_URL every server sharing the database spends
 * one budget and one quota.
 */
export async function openServices(
  config: ServerConfig,
  log?: (line: string) => void,
  { bulkFirstRead = false }: { bulkFirstRead?: boolean } = {},
) {
  const { data } = config;
  const faults = createServerFaults(log);
  const database = await openDatabase(data.database, log);
  let engine: RecordLog | undefined;
  let secret: string;
  let upstream: UpstreamConfig;
  for (let attempt = 0; ; attempt++) {
    try {
      engine = await openIndexedLog({ connectionString: database.url, faults, bulkFirstRead });
      // Before anything reads the service: a database holds one service's data.
      upstream = await claimUpstream(engine.pool, config.upstream, log);
      secret = await cursorSecret(engine);
      break;
    } catch (error) {
      await engine?.close().catch(() => undefined);
      engine = undefined;
      // A shared database that is down now may be back soon (a restart, a failover): wait
      // for it rather than exit, so a supervisor does not restart us in a loop.
      if (database.shared && databaseFailure(error) === 'down') {
        const seconds = RETRY_SECONDS[Math.min(attempt, RETRY_SECONDS.length - 1)]!;
        log?.(
          `The database (DATABASE_URL) is not answering (${(error as Error).message}); ` +
            `trying again in ${seconds} s.`,
        );
        await sleep(seconds * 1000);
        continue;
      }
      await database.close();
      throw error;
    }
  }
  // The index's reads, on DATABASE_REPLICA_URLS' replicas when they answer: each checked
  // once before the server listens.
  const reads = createReadPools(engine.pool, data.replicas, log);
  await reads.check();
  const monitoring = createMonitoring({ engine, monthlyQuota: data.monthlyQuota, reads });
  const { ratePerSecond } = config.proxy.gate;
  const { index } = config;
  // Background indexing stops for the month at this share of the quota, so visitors'
  // questions always have the rest.
  let quotaLeft = true;
  const checkQuota = async () => {
    if (data.monthlyQuota === 0) return;
    const used = await monitoring.monthUsage().catch(() => 0);
    quotaLeft = used < data.monthlyQuota * index.backgroundQuotaShare;
    if (quotaLeft) faults.clear('month');
    else {
      faults.set(
        'month',
        `This month's requests to the Token Events Service (${used} of ${data.monthlyQuota}) ` +
          `are past the ${Math.round(index.backgroundQuotaShare * 100)}% kept for reading ` +
          'histories in the background: collections not read whole yet wait for next month, ' +
          "unless a visitor's question reads them.",
      );
    }
  };
  void checkQuota();
  const quotaTimer = setInterval(() => void checkQuota(), 60_000);
  quotaTimer.unref();
  return {
    engine,
    monitoring,
    /** For `createUpstream`: the sample's anchor is the one the database was claimed with. */
    upstream,
    /** Options for `composeServer`. */
    faults,
    proxy: <Pick<ServerOptions, 'monitoring' | 'budget' | 'log_' | 'index' | 'faults' | 'reads'>>{
      monitoring,
      faults,
      reads,
      index: {
        // With no upstream rate (the embedded sample service) the shares are of 50 pages a second.
        backgroundRate: index.backgroundShare * (ratePerSecond > 0 ? ratePerSecond : 50),
        verifyRate: index.verifyShare * (ratePerSecond > 0 ? ratePerSecond : 50),
        verifyEveryMs: index.verifyEveryMs,
        quotaAllows: () => quotaLeft,
        ...(log && { log }),
      },
      // On one server the gate keeps the budget in memory; several share it in PostgreSQL.
      ...(database.shared &&
        ratePerSecond > 0 && { budget: createUpstreamBudget(ratePerSecond, engine.pool) }),
      log_: { log: engine, secret, settings: { headIntervalMs: data.headIntervalMs } },
    },
    /** Where the database is, for the start-up line. */
    description: database.description,
    close: async () => {
      clearInterval(quotaTimer);
      await monitoring.flush();
      // A list's lock may still be held across an upstream read that never ends (its
      // request was answered 503 at shutdown): the pool would wait for it for ever.
      await Promise.race([Promise.all([engine.close(), reads.close()]), sleep(CLOSE_WAIT_MS)]);
      await database.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
