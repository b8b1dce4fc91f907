import { STARKNET_QUEST_ADDRESS } from '../../src/server/sample-service';
import { upstreamRequests, type BenchContext } from './context';
import type { Running } from './lib/processes';
import { ms } from './lib/stats';

/**
 * 7. Sharing the upstream: what 100 identical page views cost the sample service
 * (`/_control/stats`). A contract page view asks for the newest page of its events
 * (`/api/v1/events/<address>?limit=100`); each scenario uses a page nobody has asked for
 * yet (a limit of its own), so the first request is a real miss.
 * - 100 concurrent views: one upstream call (coalescing, and the cache after it).
 * - 100 sequential views within the cache time (5 s for a first page): one call.
 * The same on the server with its cache off shows what coalescing alone does.
 */
const VIEWS = 100;
const ADDRESS = STARKNET_QUEST_ADDRESS;

async function views(
  context: BenchContext,
  server: Running,
  limit: number,
  concurrent: boolean,
): Promise<{ upstream: number; ms: number; failed: number; statuses: Record<string, number> }> {
  const url = `${server.url}/api/v1/events/${ADDRESS}?limit=${limit}`;
  const statuses: Record<string, number> = {};
  const view = async () => {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(context.deadline.within(30_000)),
    });
    await response.arrayBuffer();
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  };
  const before = await upstreamRequests(context);
  const start = performance.now();
  if (concurrent) {
    await Promise.all(Array.from({ length: VIEWS }, view));
  } else {
    for (let n = 0; n < VIEWS; n += 1) await view();
  }
  const took = performance.now() - start;
  const upstream = (await upstreamRequests(context)) - before;
  const failed = VIEWS - (statuses['200'] ?? 0);
  return { upstream, ms: took, failed, statuses };
}

export async function upstreamSharing(context: BenchContext): Promise<void> {
  const { report, log } = context;
  const bench = '7 sharing';
  log('7. sharing the upstream');
  const concurrent = await views(context, context.proxy, 61, true);
  const sequential = await views(context, context.proxy, 62, false);
  const concurrentOff = await views(context, context.proxyNoCache, 63, true);
  const sequentialOff = await views(context, context.proxyNoCache, 64, false);

  const check = (name: string, figures: typeof concurrent, budget?: number) => {
    const value = `${figures.upstream} upstream call${figures.upstream === 1 ? '' : 's'} (${ms(figures.ms, 0)}, ${figures.failed} failed)`;
    if (budget === undefined) report.info(bench, name, value);
    else
      report.budget(
        bench,
        name,
        value,
        `${budget}`,
        figures.upstream <= budget && figures.failed === 0,
      );
  };
  check(`${VIEWS} concurrent identical page views`, concurrent, 1);
  check(`${VIEWS} sequential views of one page within the cache time`, sequential, 1);
  if (sequential.ms > 5_000) {
    report.note('7: the sequential views took longer than the 5 s first-page cache time.');
  }
  check(`cache off (coalescing only): ${VIEWS} concurrent views`, concurrentOff);
  check(`cache off (coalescing only): ${VIEWS} sequential views`, sequentialOff);
  report.set('upstreamSharing', {
    page: `/api/v1/events/${ADDRESS}?limit=61..64`,
    concurrent,
    sequential,
    cacheOff: { concurrent: concurrentOff, sequential: sequentialOff },
  });
}
