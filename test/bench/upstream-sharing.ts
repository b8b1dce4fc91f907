import { STARKNET_QUEST_ADDRESS } from '../../src/server/sample-service';
import { upstreamRequests, type BenchContext } from './context';
import type { Running } from './lib/processes';
import { ms } from './lib/stats';

/**
 * 7. Sharing the upstream: what 100 identical page views cost the sample service
 * (`/_control/stats`). A view asks for the newest page of a contract's events
 * (`/api/v1/events/<address>?limit=100`), which the server serves from its record log,
 * reading the list's head from the service when it is due (at most every
 * `HEAD_READ_SECONDS`, 5 s, one server at a time).
 * - 100 concurrent views of a list nobody has asked for: one upstream call (the list's
 *   first read, which the others wait for and then find in the log).
 * - 100 sequential views within the head interval, after a pause of that interval (so the
 *   head is due once): one call.
 */
const VIEWS = 100;
const ADDRESS = STARKNET_QUEST_ADDRESS;
const HEAD_INTERVAL_MS = 5_000;

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
  // Which collections the service lists is read first, as any earlier visitor would have:
  // only the views' own list is counted.
  const listing = await fetch(`${context.proxy.url}/api/v1/contracts`);
  if (!listing.ok) throw new Error(`the contracts list: status ${listing.status}`);
  await listing.arrayBuffer();
  const concurrent = await views(context, context.proxy, 61, true);
  await new Promise((resolve) => setTimeout(resolve, HEAD_INTERVAL_MS));
  const sequential = await views(context, context.proxy, 62, false);

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
  check(`${VIEWS} concurrent identical page views of a list not read yet`, concurrent, 1);
  check(`${VIEWS} sequential views of one page, its head due once`, sequential, 1);
  if (sequential.ms > HEAD_INTERVAL_MS) {
    report.note('7: the sequential views took longer than the 5 s head interval.');
  }
  report.set('upstreamSharing', {
    page: `/api/v1/events/${ADDRESS}?limit=61..62`,
    concurrent,
    sequential,
  });
}
