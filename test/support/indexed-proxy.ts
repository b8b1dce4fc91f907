import { openIndexedLog } from '../../src/server/index/open-index';
import type { ListReaderSettings } from '../../src/server/log/list-reader';
import { cursorSecret } from '../../src/server/open-services';
import { composeServer, type ServerOptions } from '../../src/server/compose';
import { createServerFaults } from '../../src/server/server-faults';
import type { Upstream } from '../../src/server/upstream/service-client';

/**
 * The proxy as the server makes it, on a test database: the record log feeding the
 * index, the query API, an indexer with no background work, no per-client limit. Each
 * thing opened is handed to `cleanups`, to be closed last first.
 */
export async function indexedProxy(options: {
  url: string;
  upstream: Upstream;
  cleanups: (() => Promise<unknown>)[];
  settings?: Partial<ListReaderSettings>;
  queryTimeoutMs?: number;
  diskReserveBytes?: number;
  proxy?: Partial<ServerOptions>;
}) {
  // One set of the server's faults, told by the log (a full disk) and by the service.
  const faults = createServerFaults();
  const log = await openIndexedLog({
    connectionString: options.url,
    faults,
    ...(options.queryTimeoutMs !== undefined && { queryTimeoutMs: options.queryTimeoutMs }),
    ...(options.diskReserveBytes !== undefined && { diskReserveBytes: options.diskReserveBytes }),
  });
  options.cleanups.push(() => log.close());
  const proxy = composeServer({
    upstream: options.upstream,
    log_: {
      log,
      secret: await cursorSecret(log),
      ...(options.settings && { settings: options.settings }),
    },
    index: { backgroundRate: 0 },
    faults,
    rateLimit: { perMinute: 0, burst: 0 },
    ...options.proxy,
  });
  options.cleanups.push(async () => proxy.stop());
  return { proxy, engine: log, log };
}
