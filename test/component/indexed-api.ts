import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type { ServerOptions } from '../../src/server/compose';
import { createSampleService, type Profile } from '../../src/server/sample-service';
import { indexedProxy } from '../support/indexed-proxy';
import { usePostgresDatabases } from '../support/postgres-databases';
import { sampleUpstream } from '../support/sample-upstream';
import { smallDataset } from './harness';

/**
 * The server as it runs, in-process, for the pages that ask the query API: the sample
 * service, the event store and index on a test PostgreSQL (started for the test file),
 * the query API. The browser code's `fetch` of `/api/...` is answered by it, so a
 * component test covers the whole path from the records to the cells.
 */
export function indexedApiForTests() {
  const databases = usePostgresDatabases();
  const cleanups: (() => Promise<unknown>)[] = [];
  const inFlight = new Set<Promise<unknown>>();
  afterEach(async () => {
    // The pages first (they poll), then the fetch they used and the answers it was
    // waiting for, then the server's pools.
    cleanup();
    vi.restoreAllMocks();
    await Promise.allSettled([...inFlight]);
    for (const close of cleanups.splice(0).reverse()) await close();
  });

  return async function install(
    options: {
      profile?: Profile;
      seed?: number;
      indexed?: readonly string[];
      /** The server's own options beyond the test's (webhooks on, …). */
      proxy?: Partial<ServerOptions>;
    } = {},
  ) {
    const database = await databases.database();
    cleanups.push(database.drop);
    const service = createSampleService({
      apiKey: 'k',
      profile: options.profile ?? 'deployed',
      dataset: smallDataset(options.seed),
    });
    const { proxy, log } = await indexedProxy({
      url: database.url,
      upstream: sampleUpstream(service),
      cleanups,
      settings: { headIntervalMs: 60_000 },
      ...(options.proxy && { proxy: options.proxy }),
    });
    for (const address of options.indexed ?? []) await proxy.indexer!.whole(address).done;
    const api = {
      proxy,
      /** The server's database: for what a test sets up below the page (a delivery written). */
      pool: log.pool,
      service,
      dataset: service.dataset,
      requests: [] as string[],
      /** Answers a request in the server's stead when it returns a response. */
      intercept: null as null | ((path: string) => Response | null),
      /** The server's own answer, as the page would get it. */
      async answer(path: string) {
        return (await (await proxy.app.request(path)).json()) as Record<string, unknown>;
      },
    };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      const path = url.pathname + url.search;
      api.requests.push(path);
      const answer = api.intercept?.(path) ?? proxy.app.request(path, init);
      const settled = Promise.resolve(answer).finally(() => inFlight.delete(settled));
      inFlight.add(settled);
      return answer;
    });
    return api;
  };
}
