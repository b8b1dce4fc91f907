import pg from 'pg';
import { afterAll, afterEach } from 'vitest';
import type { ListReaderSettings } from '../../../src/server/log/list-reader';
import type { ServerOptions } from '../../../src/server/compose';
import type { Upstream } from '../../../src/server/upstream/service-client';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';

// Every row of every table but the migrations' own: what a test's servers kept. Deleted
// rather than truncated (much faster for small tables), foreign keys not checked.
const EMPTY_TABLES = `DO $$ DECLARE name text; BEGIN
  SET LOCAL session_replication_role = replica;
  FOR name IN SELECT format('%I', tablename) FROM pg_tables
    WHERE schemaname = 'public' AND tablename <> 'schema_version'
  LOOP EXECUTE 'DELETE FROM ' || name; END LOOP;
END $$`;

/**
 * For a test file (call it at its top level): `proxyOn(upstream)` makes the proxy as the
 * server does (`indexedProxy`: the record log on PostgreSQL feeding the index, a list's
 * head read again at most once a minute). Every proxy of the file uses one test database,
 * which each test finds empty: after a test its proxies are closed and every table
 * emptied (much cheaper than a database per test, and as clean). `close()` closes one proxy
 * before then: a server restarted on the same database.
 */
export function useProxies() {
  const databases = usePostgresDatabases();
  let database: Promise<string> | undefined;
  let admin: Promise<pg.Client> | undefined;
  const opened: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
    if (!database) return;
    admin ??= database.then(async (url) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    });
    await (await admin).query(EMPTY_TABLES);
  });
  // Before the test PostgreSQL stops (after hooks run last registered first).
  afterAll(async () => (await admin)?.end());

  async function proxyOn(
    upstream: Upstream,
    options: { settings?: Partial<ListReaderSettings>; proxy?: Partial<ServerOptions> } = {},
  ) {
    const url = await (database ??= databases.database().then(({ url }) => url));
    const own: (() => Promise<unknown>)[] = [];
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        for (const each of own.splice(0).reverse()) await each();
      })());
    opened.push(close);
    const made = await indexedProxy({
      url,
      upstream,
      cleanups: own,
      settings: { headIntervalMs: 60_000, ...options.settings },
      ...(options.proxy && { proxy: options.proxy }),
    });
    return { ...made, app: made.proxy.app, close };
  }

  return { proxyOn };
}
