import type { ServerConfig } from './config';
import { createMonitoring } from './monitoring';
import type { StoreEngine } from './store/engine';
import { storeSecret } from './store/event-store';
import { openFileEngine } from './store/file-engine';
import { openPostgresEngine } from './store/postgres-engine';
import { createUpstreamBudget } from './upstream/budget';

/**
 * What the proxy keeps beyond one process's memory, opened once at start-up: the store's
 * engine (a file under DATA_DIR, or PostgreSQL with DATABASE_URL) with the lists, the
 * upstream's request budget and its usage count; and the monitoring that reads them.
 * With PostgreSQL every server sharing the database spends one budget and one quota.
 */
export async function openServices(config: ServerConfig) {
  const { store } = config;
  const shared = store.engine.kind === 'postgres';
  const engine: StoreEngine & { pool?: Parameters<typeof createUpstreamBudget>[1] } =
    store.engine.kind === 'postgres'
      ? await openPostgresEngine({ connectionString: store.engine.url })
      : openFileEngine(store.engine.dataDir);
  const monitoring = createMonitoring({ engine, monthlyQuota: store.monthlyQuota });
  const { ratePerSecond } = config.proxy.gate;
  return {
    engine,
    monitoring,
    /** Options for `createProxy`. */
    proxy: {
      monitoring,
      // On one server the gate keeps the budget in memory; several share it in PostgreSQL.
      ...(shared &&
        ratePerSecond > 0 && { budget: createUpstreamBudget(ratePerSecond, engine.pool) }),
      ...(store.serveLists && {
        store: {
          engine,
          secret: await storeSecret(engine),
          settings: {
            maxBytes: store.maxBytes,
            headIntervalMs: store.headIntervalMs,
            maxAgeMs: store.maxAgeMs,
          },
        },
      }),
    },
    /** Where the store is, for the start-up line. */
    description: shared
      ? 'PostgreSQL (DATABASE_URL)'
      : `${store.engine.kind === 'file' ? store.engine.dataDir : ''} (DATA_DIR)`,
    close: async () => {
      await monitoring.flush();
      await engine.close();
    },
  };
}

export type Services = Awaited<ReturnType<typeof openServices>>;
