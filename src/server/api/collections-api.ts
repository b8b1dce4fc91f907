import { Hono } from 'hono';
import { collectionDetails } from '../index/contract-names';
import { overview } from '../index/figures';
import { matchingRanking, rankedBy, rankings, windowSummary } from '../index/rankings';
import { mounted, parse, queryKey, readOf, type ApiContext, type ApiEnv } from './api-context';
import { overviewParams, rankingParams } from './params';

/**
 * The collections: their ranking, and one collection's overview (its whole history's
 * figures). A view's figures, series and market are in figures-api.ts, its events in
 * events-api.ts, its holders in holders-api.ts.
 */
export function collectionsApi(api: ApiContext) {
  const { keyset, now } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('collections'), async (c) => {
    const params = parse(c, rankingParams);
    if (params instanceof Response) return params;
    const key = queryKey('collections', params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    await api.contractsListed(c);
    const read = await readOf(c);
    const nowSeconds = Math.floor(now() / 1000);
    const excludeWash = params.wash === 'exclude';
    const all = await rankings(read.pool, params.window, nowSeconds, { excludeWash });
    const matching = matchingRanking(all, params.q);
    const sorted = rankedBy(matching, params.sort, params.currency);
    let start = 0;
    if (cursor.after) {
      const address = cursor.after[0];
      start = sorted.findIndex((row) => row.address === address) + 1;
    }
    const page = sorted.slice(start, start + params.limit);
    const more = start + params.limit < sorted.length;
    return c.json({
      window: params.window,
      sort: `${params.sort.desc ? '-' : ''}${params.sort.id}`,
      collections: page,
      next: more ? keyset.encode(key, [page.at(-1)!.address]) : null,
      ...windowSummary(matching, nowSeconds),
      washExcluded: excludeWash,
      ...api.freshness(read),
    });
  });

  app.get(mounted('collection'), async (c) => {
    const found = await api.collectionRequest(c, overviewParams);
    if (found.error) return found.error;
    // Its name, symbol and image come with the contracts list: a server that has not read
    // it yet waits for it a little once, as the ranking does.
    await api.contractsListed(c);
    const { pool } = await readOf(c);
    const excludeWash = found.params.wash === 'exclude';
    const figures = found.id === undefined ? null : await overview(pool, found.id, { excludeWash });
    const details = await collectionDetails(pool, found.address);
    return c.json({
      address: found.address,
      ...details,
      figures,
      coverage: found.coverage,
    });
  });

  return app;
}
