import { openPostgresEngine, type PostgresEngineOptions } from '../store/postgres-engine';
import { createIngest, type Ingest } from './ingest';

/**
 * The store's PostgreSQL engine with the index fed by its commits: every page the store
 * keeps becomes index rows in the same transaction.
 */
export async function openIndexedEngine(options: Omit<PostgresEngineOptions, 'onCommit'>) {
  // Ingest needs the engine's pool, which exists once the engine does; nothing commits before.
  const fed: { ingest?: Ingest } = {};
  const engine = await openPostgresEngine({
    ...options,
    onCommit: async (client, list, chunks, meta) => {
      await fed.ingest?.onCommit(client, list, chunks, meta);
    },
  });
  fed.ingest = createIngest(engine.pool);
  return engine;
}
