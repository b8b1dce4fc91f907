import { openIndexedEngine } from '../../src/server/index/open-index';
import { createProxy, type ProxyOptions } from '../../src/server/proxy/app';
import { storeSecret, type EventStoreSettings } from '../../src/server/store/event-store';
import type { Upstream } from '../../src/server/upstream/service-client';

/**
 * The proxy as the server makes it, on a test database: the event store feeding the
 * index, the query API, an indexer with no background work, no per-client limit. Each
 * thing opened is handed to `cleanups`, to be closed last first.
 */
export async function indexedProxy(options: {
  url: string;
  upstream: Upstream;
  cleanups: (() => Promise<unknown>)[];
  settings?: Partial<EventStoreSettings>;
  queryTimeoutMs?: number;
  proxy?: Partial<ProxyOptions>;
}) {
  const engine = await openIndexedEngine({
    connectionString: options.url,
    ...(options.queryTimeoutMs !== undefined && { queryTimeoutMs: options.queryTimeoutMs }),
  });
  options.cleanups.push(() => engine.close());
  const proxy = createProxy({
    upstream: options.upstream,
    store: {
      engine,
      secret: await storeSecret(engine),
      ...(options.settings && { settings: options.settings }),
    },
    index: { pool: engine.pool, backgroundRate: 0 },
    rateLimit: { perMinute: 0, burst: 0 },
    ...options.proxy,
  });
  options.cleanups.push(async () => proxy.stop());
  return { proxy, engine };
}
