import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/server/database/migrations';
import { createDatabase, databaseUrl, startPostgres } from './postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's test PostgreSQL (its `postgres` database) and a migrated template on it. */
    testPostgres: { url: string; migrated: string };
  }
}

/**
 * Vitest's global setup: one PostgreSQL for the whole run, where each test file used to
 * start its own, and on it a database with the whole schema that tests copy
 * (`CREATE DATABASE … TEMPLATE`) instead of migrating a new one each time.
 */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  const migrated = await createDatabase(server.url, 'migrated');
  const pool = new pg.Pool({ connectionString: databaseUrl(server.url, migrated), max: 1 });
  try {
    await migrate(pool);
  } finally {
    // A template cannot be copied while anyone is connected to it.
    await pool.end();
  }
  project.provide('testPostgres', { url: server.url, migrated });
  return () => server.stop();
}
