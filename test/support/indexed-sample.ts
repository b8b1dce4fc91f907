import { afterEach } from 'vitest';
import type { ProxyOptions } from '../../src/server/proxy/app';
import { createSampleService, type Dataset } from '../../src/server/sample-service';
import { indexedProxy } from './indexed-proxy';
import { usePostgresDatabases } from './postgres-databases';
import { sampleUpstream } from './sample-upstream';

/**
 * For a test file: a test PostgreSQL, and per test a new database with the proxy as the
 * server makes it (with `options`) over an in-process sample service of
 * `dataset` (deployed profile); everything opened is closed after each test.
 */
export function useIndexedSample(dataset: Dataset, options?: Partial<ProxyOptions>) {
  const databases = usePostgresDatabases();
  const opened: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });
  return async function setUp() {
    const database = await databases.database();
    opened.push(database.drop);
    const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
    const { proxy, engine } = await indexedProxy({
      url: database.url,
      upstream: sampleUpstream(service),
      cleanups: opened,
      settings: { headIntervalMs: 60_000 },
      ...(options && { proxy: options }),
    });
    return { proxy, engine, service };
  };
}
