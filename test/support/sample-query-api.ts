import { afterEach } from 'vitest';
import { createSampleService, type generateDataset } from '../../src/server/sample-service';
import { indexedProxy } from './indexed-proxy';
import { usePostgresDatabases } from './postgres-databases';
import { sampleUpstream } from './sample-upstream';

// Answers are read loosely unless a test names their type: its assertions say what they hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/**
 * The query API over the sample service's `dataset`, each test on a database of its own
 * (closed after it): the proxy as the server makes it, the service itself (for its raw
 * records), the index's pool, and `get` for a JSON answer.
 */
export function useSampleQueryApi(dataset: ReturnType<typeof generateDataset>) {
  const databases = usePostgresDatabases();
  const opened: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });
  return async (profile: 'deployed' | 'documented' = 'deployed') => {
    const database = await databases.database();
    opened.push(database.drop);
    const service = createSampleService({ apiKey: 'k', profile, dataset });
    const { proxy, engine } = await indexedProxy({
      url: database.url,
      upstream: sampleUpstream(service),
      cleanups: opened,
      settings: { headIntervalMs: 60_000 },
    });
    const get = async <T = Json>(path: string) => {
      const response = await proxy.app.request(path);
      return { status: response.status, body: (await response.json()) as T, response };
    };
    return { proxy, service, pool: engine.pool, get };
  };
}
