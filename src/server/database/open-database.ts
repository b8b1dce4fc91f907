import { startEmbeddedPostgres } from './embedded-postgres';

/**
 * The server's PostgreSQL: the one DATABASE_URL names (shared by every server given it),
 * or else one of its own, embedded, in DATA_DIR. Either way the same schema and the same
 * SQL (postgres-engine.ts), only where it runs differs.
 */
export type DatabaseConfig =
  { kind: 'embedded'; dataDir: string } | { kind: 'external'; url: string };

export interface Database {
  url: string;
  /** Several servers may share it. */
  shared: boolean;
  /** Where it is, for the start-up line. */
  description: string;
  /** Stops the embedded PostgreSQL; nothing for an external one. */
  close(): Promise<void>;
}

export async function openDatabase(
  config: DatabaseConfig,
  log?: (line: string) => void,
): Promise<Database> {
  if (config.kind === 'external') {
    return {
      url: config.url,
      shared: true,
      description: 'PostgreSQL (DATABASE_URL)',
      close: async () => {},
    };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
  return {
    url: embedded.url,
    shared: false,
    description: `embedded PostgreSQL in ${embedded.pgData} (DATA_DIR)`,
    close: embedded.stop,
  };
}
