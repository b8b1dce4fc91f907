import { openPostgresEngine, type PostgresEngineOptions } from '../store/postgres-engine';
import { createIngest, type Ingest } from './ingest';

/**
 * The store's PostgreSQL engine with the index fed by its commits: every page the store
 * keeps becomes index rows in the same transaction.
 */
export async function openIndexedEngine(options: Omit<PostgresEngineOptions, 'onCommit'>) {
  let ingest: Ingest | undefined;
  const engine = await openPostgresEngine({
    ...options,
    onCommit: async (client, list, chunks, meta) => {
      await ingest?.onCommit(client, list, chunks, meta);
    },
  });
  ingest = createIngest(engine.pool);
  return engine;
}
