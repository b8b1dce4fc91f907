import { afterEach } from 'vitest';
import type { ServerOptions } from '../../src/server/compose';
import { createSampleService, type Dataset, type Profile } from '../../src/server/sample-service';
import { indexedProxy } from './indexed-proxy';
import { usePostgresDatabases } from './postgres-databases';
import { sampleUpstream } from './sample-upstream';

// Answers are read loosely unless a test names their type: its assertions say what they hold.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/**
 * For a test file (call it at its top level): `setUp(profile)` gives each test a new
 * database, the sample service over `dataset` and the proxy as the server makes it on both
 * (`indexedProxy` with `options`, a list's head read again at most once a minute), all
 * closed after the test; `get` reads a JSON answer of the proxy.
 */
export function useIndexedSample(dataset: Dataset, options?: Partial<ServerOptions>) {
  const databases = usePostgresDatabases();
  const opened: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });
  return async function setUp(profile: Profile = 'deployed') {
    const database = await databases.database();
    opened.push(database.drop);
    const service = createSampleService({ apiKey: 'k', profile, dataset });
    const { proxy, engine } = await indexedProxy({
      url: database.url,
      upstream: sampleUpstream(service),
      cleanups: opened,
      settings: { headIntervalMs: 60_000 },
      ...(options && { proxy: options }),
    });
    const get = async <T = Json>(path: string) => {
      const response = await proxy.app.request(path);
      return { status: response.status, body: (await response.json()) as T, response };
    };
    return { proxy, engine, service, pool: engine.pool, get };
  };
}
