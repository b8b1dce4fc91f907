import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerConfig } from './config';
import { openDatabase } from './database/open-database';
import type { ProxyOptions } from './proxy/app';
import { createMonitoring } from './monitoring';
import { storeSecret } from './store/event-store';
import { openPostgresEngine, type PostgresEngine } from './store/postgres-engine';
import { createUpstreamBudget } from './upstream/budget';

// How long closing waits for connections still held before stopping the database.
const CLOSE_WAIT_MS = 1_000;

/**
 * What the proxy keeps beyond one process's memory, opened once at start-up: the
 * database (the embedded PostgreSQL in DATA_DIR, or DATABASE_URL's), the store's engine
 * on it with the lists, the upstream's request budget and its usage count; and the
 * monitoring that reads them. With DATABASE_URL every server sharing the database spends
 * one budget and one quota.
 */
export async function openServices(config: ServerConfig, log?: (line: string) => void) {
  const { store } = config;
  const database = await openDatabase(store.database, log);
  let engine: PostgresEngine | undefined;
  let secret: string;
  try {
    engine = await openPostgresEngine({ connectionString: database.url });
    secret = await storeSecret(engine);
  } catch (error) {
    await engine?.close();
    await database.close();
    throw error;
  }
  const monitoring = createMonitoring({ engine, monthlyQuota: store.monthlyQuota });
  const { ratePerSecond } = config.proxy.gate;
  return {
    engine,
    monitoring,
    /** Options for `createProxy`. */
    proxy: <Pick<ProxyOptions, 'monitoring' | 'budget' | 'store'>>{
      monitoring,
      // On one server the gate keeps the budget in memory; several share it in PostgreSQL.
      ...(database.shared &&
        ratePerSecond > 0 && { budget: createUpstreamBudget(ratePerSecond, engine.pool) }),
      store: {
        engine,
        secret,
        settings: {
          maxBytes: store.maxBytes,
          headIntervalMs: store.headIntervalMs,
          maxAgeMs: store.maxAgeMs,
        },
      },
    },
    /** Where the store is, for the start-up line. */
    description: database.description,
    close: async () => {
      await monitoring.flush();
      // A list's lock may still be held across an upstream read that never ends (its
      // request was answered 503 at shutdown): the pool would wait for it for ever.
      await Promise.race([engine.close(), sleep(CLOSE_WAIT_MS)]);
      await database.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
